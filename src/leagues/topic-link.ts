import type { PlayerTopicLink } from "../kit/area";
import { leaguesCatalog } from "./catalog";
import { cohortTopic } from "./core/changes";
import { seasonAt } from "./core/season";
import { memberOf } from "./store";

/** The topic of the cohort the player plays in this season: its standings as they change. */
export const leagueTopicLink: PlayerTopicLink = {
  operationId: "getLeagueCohortTopic",
  query: "league_id",
  summary: "The MQTT topic on which the standings of the token user's cohort in a league are pushed",
  description:
    "Each message is the `league-standings-changed` body (`webhook_type` included): the cohort's members with rank, score and zone, " +
    "after a player arrived or a score moved. 404 when the league is not in the app or the player has no cohort in its current " +
    "season yet (their first qualifying event places them); a new season means a new cohort and a new topic.",
  async ref(env, appId, userId, id, now) {
    const league = (await leaguesCatalog(env.DB, appId)).byId.get(id);
    if (!league) return { notFound: `League ${id} not found` };
    const season = seasonAt(league.schedule, now);
    const member = await memberOf(env.DB, id, season.startsAt, userId);
    if (!member) return { notFound: `The player has no cohort in league ${id} this season yet` };
    return cohortTopic({ appId, leagueId: id, cohortId: String(member.cohort_id) });
  },
};
