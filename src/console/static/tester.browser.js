// The event tester's live view: subscribes to the player's MQTT topics over WebSocket with the
// mqtt package, exactly as a game client does, and lists every message with what it changed.
import mqtt from "./mqtt.esm.js";

const attached = new WeakSet();

// A name the tester suggests for an event name that nothing counts: a press puts it in the field,
// whose input asks the server again (the warning then goes).
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element && event.target.closest("[data-use-event-name]");
  if (!button) return;
  const input = button.closest("#tester-panel")?.querySelector('input[name="event_name"]');
  if (!input) return;
  input.value = button.dataset.useEventName;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.focus();
});
let current = null;

/** Starts listening for the tester panel `live`; an earlier panel (another page) stops. */
export function attach(live) {
  if (attached.has(live)) return;
  attached.add(live);
  current?.stop();
  current = new LiveView(live);
}

const MAX_MESSAGES = 200;
/** The width at which the tester is one column (console.css, narrow screens). */
const ONE_COLUMN = matchMedia("(max-width: 900px)");
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: "medium" });

class LiveView {
  constructor(live) {
    this.live = live;
    this.status = live.querySelector(".live-status");
    this.log = live.querySelector(".live-log");
    this.client = null;
    this.userId = "";
    this.labels = new Map();
    const initial = JSON.parse(live.querySelector("#live-topics")?.textContent ?? "{}");
    this.onChange = (event) => {
      if (
        event.target instanceof HTMLInputElement &&
        event.target.name === "user_id" &&
        event.target.closest("#tester-panel")
      ) {
        this.follow(event.target.value.trim());
      }
    };
    document.addEventListener("change", this.onChange);
    // Leaving the page (htmx swaps the content) ends the connection. At phone width the live
    // changes sit below the whole form, so a sent event brings them into view.
    this.onSwap = (event) => {
      if (!document.body.contains(this.live)) return this.stop();
      const panel =
        event.target instanceof Element &&
        (event.target.closest("#tester-panel") ?? event.target.querySelector("#tester-panel"));
      const sent = panel?.querySelector("#send-result .sent");
      if (sent && ONE_COLUMN.matches) this.live.scrollIntoView({ block: "start" });
    };
    document.addEventListener("htmx:afterSettle", this.onSwap);
    if (initial.userId) this.listen(initial.userId, initial.topics ?? []);
  }

  async follow(userId) {
    if (userId === this.userId) return;
    if (!userId) return this.listen("", []);
    const url = new URL(this.live.dataset.topicsUrl, location.href);
    url.searchParams.set("user_id", userId);
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    if (!response.ok) return this.setStatus(`Could not get the topics of ${userId} (${response.status}).`, "failed");
    const body = await response.json();
    this.listen(body.userId, body.topics);
  }

  listen(userId, topics) {
    this.client?.end(true);
    this.client = null;
    this.userId = userId;
    this.labels = new Map(topics.map((t) => [t.topic, t.label]));
    if (!userId) return this.setStatus("Enter a player to listen to their topics.");
    this.setStatus(`Connecting to listen to ${userId}…`);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const client = mqtt.connect(`${scheme}://${location.host}/mqtt`, {
      protocolVersion: 5,
      reconnectPeriod: 2000,
      timerVariant: "native",
    });
    this.client = client;
    client.on("connect", () => {
      client.subscribe([...this.labels.keys()], { qos: 0 }, (error) => {
        if (client !== this.client) return;
        if (error) return this.setStatus(`Subscribing failed: ${error.message}`, "failed");
        this.setStatus(
          `Listening to ${this.labels.size} topics of ${userId}: ${[...this.labels.values()].join(", ")}.`,
          "connected",
        );
        this.live.dataset.subscribed = userId;
      });
    });
    client.on("message", (topic, payload) => this.show(topic, payload));
    client.on("error", (error) => this.setStatus(`Connection problem: ${error.message}`, "failed"));
    client.on("offline", () => {
      if (client === this.client) this.setStatus("Connection lost, reconnecting…", "failed");
    });
  }

  stop() {
    this.client?.end(true);
    this.client = null;
    document.removeEventListener("change", this.onChange);
    document.removeEventListener("htmx:afterSettle", this.onSwap);
  }

  setStatus(text, state = "") {
    this.status.textContent = text;
    this.status.className = `live-status ${state}`;
  }

  show(topic, payload) {
    let body;
    try {
      body = JSON.parse(new TextDecoder().decode(payload));
    } catch {
      body = { raw: new TextDecoder().decode(payload) };
    }
    const item = document.createElement("li");
    const when = Object.assign(document.createElement("span"), {
      className: "when",
      textContent: timeFormat.format(new Date()),
    });
    const kind = Object.assign(document.createElement("span"), {
      className: "badge",
      textContent: body.webhook_type ?? this.labels.get(topic) ?? "message",
    });
    const summary = Object.assign(document.createElement("div"), {
      className: "summary",
      textContent: summarize(body),
    });
    const details = document.createElement("details");
    details.append(Object.assign(document.createElement("summary"), { textContent: "JSON" }));
    details.append(
      Object.assign(document.createElement("pre"), { className: "json", textContent: JSON.stringify(body, null, 2) }),
    );
    item.append(when, kind, summary, details);
    this.log.prepend(item);
    while (this.log.children.length > MAX_MESSAGES) this.log.lastElementChild.remove();
  }
}

/** One line saying what changed, from the payload of the spec's webhook types. */
function summarize(body) {
  const state = (c) => (c ? `${c.type} ${c.user_challenge_current_score ?? 0}/${c.challenge_goal ?? "?"}` : "none");
  switch (body.webhook_type) {
    case "challenge-changed": {
      const after = body.new_challenge ?? {};
      return `Challenge ${after.challenge_id} “${after.challenge_name}”: ${state(body.old_challenge)} → ${state(after)}`;
    }
    case "battlepass-challenge-changed": {
      const after = body.new_battle_pass_challenge ?? {};
      return `Battle pass ${after.battle_pass_id}, level ${Number(after.level_position_index) + 1}, challenge ${after.challenge_id}: ${state(body.old_battle_pass_challenge)} → ${state(after)}`;
    }
    case "battlepass-level-reward-claimed": {
      const claim = body.battle_pass_level_reward_claimed ?? {};
      return `Battle pass ${claim.battle_pass_id}: reward of level ${Number(claim.level_position_index) + 1} claimed (${claim.reward_amount} ${claim.reward_type_name})`;
    }
    case "battlepass-expired":
      return `Battle pass ${body.new_battle_pass?.battle_pass_id ?? ""} expired`;
    case "leaderboard-ranking-changed":
    case "leaderoard-updated": {
      const board = body.leaderboard_data ?? {};
      const member = body.member_data ?? {};
      const before = body.old_leaderboard_ranking ?? {};
      const after = body.new_leaderboard_ranking ?? {};
      return `Leaderboard “${board.name}”: ${member.member_type} ${member.member_id} rank ${before.rank} → ${after.rank}, score ${before.score} → ${after.score}`;
    }
    default:
      return "A message on this topic";
  }
}
