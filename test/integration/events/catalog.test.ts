import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../helpers";
import { capturingBackground, callCapturing } from "./support";

/**
 * The oracle: the table and the number fields exactly as the spec (event-catalog.md) gives them,
 * parsed here independently of src/events/catalog.ts.
 */
const SPEC_TABLE = `
| achieve-score | score | RT, TC |
| build-road | amount, player_character | map_name, realm, RT, TC |
| capture-flag | amount | map_name, player_character, RT, TC |
| catch-animal | amount, animal_name | RT, TC |
| character-fly | distance, player_character | realm, RT, TC |
| character-respawn | amount, player_character | realm, RT, TC |
| character-run | distance, player_character | realm, RT, TC |
| character-spawned | amount, player_character | TC |
| character-survive | duration, player_character | realm, RT, TC |
| character-walk | distance, player_character | realm, RT, TC |
| collect-item | amount, item_type | none |
| consume-content | content_type | item_id, item_type |
| craft-item | amount, item_type | RT, TC |
| deal-damage | damage_amount | player_character, RT, TC, weapon_used |
| defeat-boss | none | enemy_character, health, hit_type, player_character, RT, TC |
| destroy-item | amount, item_id | RT, TC |
| earn-experience | amount | RT, TC, type |
| earn-points | amount | RT, TC, type |
| event-completed | action_type, amount | action_object, action_subject, RT, TC |
| finish-building | building_id | building_level, RT, TC |
| finish-fight | none | battle_status, enemy_character, health, hit_type, player_character, RT |
| finish-laps | lap_position, required_time | TC |
| finish-round | round_id | battle_status, enemy_character, health, player_character, RT, round_type, TC |
| finish-transport | transport_id | distance, fuel_consumed, RT, TC |
| fire-rate | amount | RT, TC |
| gain-resource | amount, resource_name | RT, TC |
| heal-unit | amount, unit_type | RT, TC |
| hire-crew | amount, crew_name | RT, TC |
| instant-death | amount, character_name | RT, TC |
| instant-kill | amount | character_name, RT, TC |
| kill-ammo | ammo_used | enemy_type, player_character, RT, TC, weapon_used |
| kill-enemy | amount | enemy_type, kill_type, map_name, player_character, realm, RT, weapon_used |
| lap-position | lap_position, required_time | TC |
| match-start | none | TC |
| match-finish | none | TC |
| obtain-item | item_id | armor, health, RT, TC |
| pass-level | level_id | armor, health, RT, TC |
| pass-mission | mission_id | armor, health, RT, TC |
| perform-jump | distance | health, RT, score, TC |
| play-card | amount, card_type | RT, TC |
| play-effect | amount, effect_id | RT, TC |
| race-position | lap_position | health, RT, TC |
| reach-checkpoint | checkpoint_id | armor, health, RT, TC |
| reach-coordinates | coordinate_x, coordinate_y | RT, TC |
| reach-distance | distance | health, RT, TC |
| reach-height | distance | health, RT, TC |
| reach-map-section | amount, map_section_name | RT, TC |
| reach-progress | level_id | armor, health, RT, TC |
| reach-speed | amount | health, RT, TC |
| receive-damage | damage_amount | enemy_character, player_character, RT, TC, weapon_used |
| replenish-stat | amount | RT, stat_type, TC |
| secure-zone | amount | map_name, RT, TC, zone_name |
| solve-puzzle | amount, puzzle_id | RT, TC |
| spawn-item | amount, item_type | RT |
| spray-graffiti | amount, player_character | map_name, realm, RT, TC |
| trade-resource | amount_gained, amount_given, resource_gained, resource_given | RT, TC |
| trigger-event | amount | event_type, player_character |
| upgrade-item | amount, item_name | RT, TC |
| upgrade-weapon | amount, weapon_id | player_character, RT, TC, upgrade_type, weapon_used |
| use-item | amount, item_name | RT, TC |
| user-invite | amount | none |
| weapon-action | amount, weapon_id, weapon_used | player_character, RT, TC |
| weapon-activated | amount, weapon_type | duration, TC |
| win-bounty | amount, bounty_name | RT, TC |
`;
const SPEC_NUMBER_FIELDS =
  "amount, score, required_time, distance, duration, damage_amount, health, armor, ammo_used, battle_status, building_level, fuel_consumed, lap_position, round_id, coordinate_x, coordinate_y, amount_gained, amount_given";

const numberFields = new Set(SPEC_NUMBER_FIELDS.split(", "));
const fieldList = (cell: string) =>
  cell.trim() === "none"
    ? []
    : cell.split(",").map((f) => ({ RT: "required_time", TC: "time_condition" })[f.trim()] ?? f.trim());
const specEvents = SPEC_TABLE.trim()
  .split("\n")
  .map((line) => line.split("|").slice(1, 4))
  .map(([name, required, optional]) => ({
    name: name.trim(),
    required: fieldList(required),
    optional: fieldList(optional),
  }));

const sample = (field: string, i: number) => (numberFields.has(field) ? 10 + i : `${field}-value`);
const metaOf = (fields: string[]) => Object.fromEntries(fields.map((f, i) => [f, sample(f, i)]));

let app: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  app = await createTestApp("Catalog");
});

describe("the predefined catalog", () => {
  it("lists exactly the spec's events with their fields and types", async () => {
    const { queue } = capturingBackground();
    const documentation = await callCapturing(queue, "GET", "/api/v1/public/documentation");
    expect(documentation.status).toBe(200);
    const describe = (fields: string[]) =>
      fields.map((f) => ({ property_name: f, property_type: numberFields.has(f) ? "number" : "string" }));
    expect(documentation.body).toEqual(
      specEvents.map((e) => ({
        event_name: e.name,
        required_properties: describe(e.required),
        optional_properties: describe(e.optional),
      })),
    );
  });

  it("accepts a valid instance of every predefined event and keeps all of its fields", async () => {
    expect(specEvents).toHaveLength(64);
    const { sent, queue } = capturingBackground();
    for (const e of specEvents) {
      const meta = metaOf([...e.required, ...e.optional]);
      const body = {
        user_id: "catalog-user",
        event_name: e.name,
        event_type: "single",
        session_id: "s1",
        meta_data: { ...meta, not_a_field: 1.5 },
      };
      const r = await callCapturing(queue, "POST", "/api/v1/events", { token: app.apiKey, body });
      expect([e.name, r]).toEqual([e.name, { status: 200, body: { status: 200, message: "OK" } }]);
      expect(sent.at(-1)).toMatchObject({ kind: "event", event: { eventName: e.name, metaData: meta } });
    }
    expect(sent).toHaveLength(64);
  });

  it("names every missing required field of every event", async () => {
    const { sent, queue } = capturingBackground();
    for (const e of specEvents) {
      for (const missing of e.required) {
        const meta = metaOf(e.required.filter((f) => f !== missing));
        const r = await callCapturing(queue, "POST", "/api/v1/events", {
          token: app.apiKey,
          body: { user_id: "catalog-user", event_name: e.name, meta_data: meta },
        });
        const problem = `is required for event '${e.name}'`;
        expect(r).toEqual({
          status: 400,
          body: {
            status: 400,
            message: `Invalid event: meta_data.${missing} ${problem}`,
            errors: [{ field: `meta_data.${missing}`, problem }],
          },
        });
      }
    }
    expect(sent).toHaveLength(0);
  });

  it("refuses a float in every number field and a number in every string field", async () => {
    const { sent, queue } = capturingBackground();
    for (const e of specEvents) {
      const fields = [...e.required, ...e.optional];
      for (const field of fields) {
        const wrong = numberFields.has(field) ? 2.5 : 7;
        const r = await callCapturing(queue, "POST", "/api/v1/events", {
          token: app.apiKey,
          body: { user_id: "catalog-user", event_name: e.name, meta_data: { ...metaOf(fields), [field]: wrong } },
        });
        const problem = numberFields.has(field)
          ? "must be an integer, not a float (scale it to an integer, for example times 1000)"
          : "must be a string, not an integer";
        expect([e.name, r.status, r.body.errors]).toEqual([e.name, 400, [{ field: `meta_data.${field}`, problem }]]);
      }
    }
    expect(sent).toHaveLength(0);
  });
});
