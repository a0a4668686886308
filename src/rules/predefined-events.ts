/**
 * The predefined event catalog (spec: event-catalog.md) as data. Fields listed in NUMBER_FIELDS
 * carry integers; every other field is a string. `RT` and `TC` of the spec's table are written
 * out as `required_time` and `time_condition`.
 */
export type FieldType = "number" | "string";

export interface CatalogEvent {
  required: readonly string[];
  optional: readonly string[];
}

export const NUMBER_FIELDS: ReadonlySet<string> = new Set([
  "amount",
  "score",
  "required_time",
  "distance",
  "duration",
  "damage_amount",
  "health",
  "armor",
  "ammo_used",
  "battle_status",
  "building_level",
  "fuel_consumed",
  "lap_position",
  "round_id",
  "coordinate_x",
  "coordinate_y",
  "amount_gained",
  "amount_given",
]);

export const fieldType = (field: string): FieldType => (NUMBER_FIELDS.has(field) ? "number" : "string");

const RT = "required_time";
const TC = "time_condition";

const event = (required: string[], optional: string[]): CatalogEvent => ({ required, optional });

/**
 * In `trigger-event`, `event_type` is a meta data field of its own, unrelated to the payload's
 * top-level `event_type` (single or group).
 */
export const PREDEFINED_EVENTS: Readonly<Record<string, CatalogEvent>> = {
  "achieve-score": event(["score"], [RT, TC]),
  "build-road": event(["amount", "player_character"], ["map_name", "realm", RT, TC]),
  "capture-flag": event(["amount"], ["map_name", "player_character", RT, TC]),
  "catch-animal": event(["amount", "animal_name"], [RT, TC]),
  "character-fly": event(["distance", "player_character"], ["realm", RT, TC]),
  "character-respawn": event(["amount", "player_character"], ["realm", RT, TC]),
  "character-run": event(["distance", "player_character"], ["realm", RT, TC]),
  "character-spawned": event(["amount", "player_character"], [TC]),
  "character-survive": event(["duration", "player_character"], ["realm", RT, TC]),
  "character-walk": event(["distance", "player_character"], ["realm", RT, TC]),
  "collect-item": event(["amount", "item_type"], []),
  "consume-content": event(["content_type"], ["item_id", "item_type"]),
  "craft-item": event(["amount", "item_type"], [RT, TC]),
  "deal-damage": event(["damage_amount"], ["player_character", RT, TC, "weapon_used"]),
  "defeat-boss": event([], ["enemy_character", "health", "hit_type", "player_character", RT, TC]),
  "destroy-item": event(["amount", "item_id"], [RT, TC]),
  "earn-experience": event(["amount"], [RT, TC, "type"]),
  "earn-points": event(["amount"], [RT, TC, "type"]),
  "event-completed": event(["action_type", "amount"], ["action_object", "action_subject", RT, TC]),
  "finish-building": event(["building_id"], ["building_level", RT, TC]),
  "finish-fight": event([], ["battle_status", "enemy_character", "health", "hit_type", "player_character", RT]),
  "finish-laps": event(["lap_position", RT], [TC]),
  "finish-round": event(
    ["round_id"],
    ["battle_status", "enemy_character", "health", "player_character", RT, "round_type", TC],
  ),
  "finish-transport": event(["transport_id"], ["distance", "fuel_consumed", RT, TC]),
  "fire-rate": event(["amount"], [RT, TC]),
  "gain-resource": event(["amount", "resource_name"], [RT, TC]),
  "heal-unit": event(["amount", "unit_type"], [RT, TC]),
  "hire-crew": event(["amount", "crew_name"], [RT, TC]),
  "instant-death": event(["amount", "character_name"], [RT, TC]),
  "instant-kill": event(["amount"], ["character_name", RT, TC]),
  "kill-ammo": event(["ammo_used"], ["enemy_type", "player_character", RT, TC, "weapon_used"]),
  "kill-enemy": event(
    ["amount"],
    ["enemy_type", "kill_type", "map_name", "player_character", "realm", RT, "weapon_used"],
  ),
  "lap-position": event(["lap_position", RT], [TC]),
  "match-start": event([], [TC]),
  "match-finish": event([], [TC]),
  "obtain-item": event(["item_id"], ["armor", "health", RT, TC]),
  "pass-level": event(["level_id"], ["armor", "health", RT, TC]),
  "pass-mission": event(["mission_id"], ["armor", "health", RT, TC]),
  "perform-jump": event(["distance"], ["health", RT, "score", TC]),
  "play-card": event(["amount", "card_type"], [RT, TC]),
  "play-effect": event(["amount", "effect_id"], [RT, TC]),
  "race-position": event(["lap_position"], ["health", RT, TC]),
  "reach-checkpoint": event(["checkpoint_id"], ["armor", "health", RT, TC]),
  "reach-coordinates": event(["coordinate_x", "coordinate_y"], [RT, TC]),
  "reach-distance": event(["distance"], ["health", RT, TC]),
  "reach-height": event(["distance"], ["health", RT, TC]),
  "reach-map-section": event(["amount", "map_section_name"], [RT, TC]),
  "reach-progress": event(["level_id"], ["armor", "health", RT, TC]),
  "reach-speed": event(["amount"], ["health", RT, TC]),
  "receive-damage": event(["damage_amount"], ["enemy_character", "player_character", RT, TC, "weapon_used"]),
  "replenish-stat": event(["amount"], [RT, "stat_type", TC]),
  "secure-zone": event(["amount"], ["map_name", RT, TC, "zone_name"]),
  "solve-puzzle": event(["amount", "puzzle_id"], [RT, TC]),
  "spawn-item": event(["amount", "item_type"], [RT]),
  "spray-graffiti": event(["amount", "player_character"], ["map_name", "realm", RT, TC]),
  "trade-resource": event(["amount_gained", "amount_given", "resource_gained", "resource_given"], [RT, TC]),
  "trigger-event": event(["amount"], ["event_type", "player_character"]),
  "upgrade-item": event(["amount", "item_name"], [RT, TC]),
  "upgrade-weapon": event(["amount", "weapon_id"], ["player_character", RT, TC, "upgrade_type", "weapon_used"]),
  "use-item": event(["amount", "item_name"], [RT, TC]),
  "user-invite": event(["amount"], []),
  "weapon-action": event(["amount", "weapon_id", "weapon_used"], ["player_character", RT, TC]),
  "weapon-activated": event(["amount", "weapon_type"], ["duration", TC]),
  "win-bounty": event(["amount", "bounty_name"], [RT, TC]),
};

export function predefinedEvent(name: string): CatalogEvent | undefined {
  return Object.hasOwn(PREDEFINED_EVENTS, name) ? PREDEFINED_EVENTS[name] : undefined;
}

const describeFields = (fields: readonly string[]) =>
  fields.map((name) => ({ property_name: name, property_type: fieldType(name) }));

/** The catalog in SCILL's EventDescription shape (GET /api/v1/public/documentation). */
export const describeCatalog = () =>
  Object.entries(PREDEFINED_EVENTS).map(([name, { required, optional }]) => ({
    event_name: name,
    required_properties: describeFields(required),
    optional_properties: describeFields(optional),
  }));
