/**
 * The realtime channel (MQTT) as the rest of the service reaches it: the brokers, topics and their
 * names, who watches a user's topics, publishing. Code outside src/realtime imports from this file
 * only (scripts/check-layers.mjs checks it).
 */
export { MqttBroker, type TopicBatch } from "./broker-do";
export { brokerTables } from "./broker-tables";
export { publishChanges } from "./publish";
export { allShards } from "./shards";
export { TopicHub } from "./topic-hub-do";
export { topicName, type RealtimeTopicRef } from "./topics";
export { MQTT_PATH, connectMqtt } from "./upgrade";
export { watchedTopics } from "./watched-topics";
export { TopicWatchers, watchersTables } from "./watchers";
