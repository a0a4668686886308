import type { CategoryDef, ChallengeDef } from "../../../src/challenges/core/model";

/** Catalog objects for the challenge unit tests: a manual challenge of category 1, a plain category. */
export const challenge = (id: string, over: Partial<ChallengeDef> = {}): ChallengeDef => ({
  challengeId: id,
  key: `challenge-${id}`,
  categoryId: "1",
  name: { en: `Challenge ${id}`, de: `Herausforderung ${id}` },
  description: { en: "Text", de: "Text DE" },
  goal: 5,
  goalCondition: 0,
  durationSeconds: -1,
  liveDate: null,
  price: 0,
  reward: "r",
  rewardType: "t",
  xp: 1,
  pointsRewards: [],
  icon: "i",
  iconHd: "ih",
  repeatable: false,
  autoActivated: false,
  period: { period: "never", resetAtTime: "00:00:00", timeZone: "UTC" },
  counter: {
    eventName: "kill-enemy",
    valueField: null,
    filters: [],
    goal: 5,
    goalCondition: 0,
    counterScope: "session",
  },
  ...over,
});

export const category = (id: string, challenges: ChallengeDef[], over: Partial<CategoryDef> = {}): CategoryDef => ({
  categoryId: id,
  slug: `slug-${id}`,
  name: { en: "Daily", de: "Täglich" },
  position: 0,
  isDaily: false,
  dailyChallengeCount: 1,
  challenges,
  ...over,
});
