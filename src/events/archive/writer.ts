import type { EventRecord } from "../core/event-record";
import { ARCHIVE_FORMAT, ARCHIVE_SUFFIX, archiveLine, byPartition } from "../core/archive-layout";
import { sha256Hex } from "../../shared/crypto";

/** 128 bits of the hash of the message ids: names never collide by chance. */
const BATCH_ID_HEX = 32;

async function gzip(text: string): Promise<ArrayBuffer> {
  // R2 needs the length of what it stores up front, so the compressed bytes are collected first.
  const compressed = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Response(compressed).arrayBuffer();
}

/**
 * Archives events as gzip-compressed newline-delimited JSON: one object per app and UTC hour of
 * the batch (core/archive-layout.ts), named by a hash of the ids of the messages it holds. A
 * redelivered batch writes the same objects again under the same names, so nothing is archived
 * twice; the objects of one batch are written in parallel.
 */
export async function archiveEvents(bucket: R2Bucket, records: EventRecord[]): Promise<void> {
  await Promise.all(
    [...byPartition(records)].map(async ([folder, group]) => {
      const batchId = (
        await sha256Hex(
          group
            .map((r) => r.id)
            .sort()
            .join("\n"),
        )
      ).slice(0, BATCH_ID_HEX);
      const body = await gzip(`${group.map(archiveLine).join("\n")}\n`);
      await bucket.put(`${folder}${batchId}${ARCHIVE_SUFFIX}`, body, {
        httpMetadata: { contentType: "application/gzip" },
        customMetadata: { format: ARCHIVE_FORMAT, events: String(group.length) },
      });
    }),
  );
}
