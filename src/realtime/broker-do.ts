import { DurableObject } from "cloudflare:workers";

/** The MQTT-over-WebSocket broker. Filled in by the realtime area. */
export class MqttBroker extends DurableObject<Env> {
  override async fetch(_request: Request): Promise<Response> {
    return new Response(JSON.stringify({ status: 501, message: "MQTT broker not available yet" }), { status: 501 });
  }
}
