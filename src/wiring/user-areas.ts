import type { UserObjectContext } from "../user/area";
import { UserBattlePasses } from "../battlepasses/user-progress";
import { UserChallenges } from "../challenges/user-challenges";

/**
 * The areas of the user's object, in the order an event applies to them (a battle pass counts the
 * event before a challenge's completion could be reported). Adding an area is one line here.
 */
export function userAreas(context: UserObjectContext) {
  return {
    battlePasses: new UserBattlePasses(context),
    challenges: new UserChallenges(context),
  };
}
