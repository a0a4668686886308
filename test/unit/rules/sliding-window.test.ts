import { describe, expect, it } from "vitest";
import { admit, record, WINDOW_MS, type WindowEntry } from "../../../src/rules/sliding-window";

const T = 1_000_000;

describe("admit", () => {
  it("admits up to the limit and says when one more fits", () => {
    expect(admit([], T, 20, 1)).toEqual({ admitted: 1, remaining: 19, retryAfterMs: 0 });
    expect(admit([{ at: T, n: 20 }], T, 20, 1)).toEqual({ admitted: 0, remaining: 0, retryAfterMs: WINDOW_MS });
    // The first of the window leaves first.
    const log = [
      { at: T - 50_000, n: 5 },
      { at: T - 10_000, n: 15 },
    ];
    expect(admit(log, T, 20, 1)).toEqual({ admitted: 0, remaining: 0, retryAfterMs: 10_000 });
    expect(admit(log, T, 20, 6)).toEqual({ admitted: 0, remaining: 0, retryAfterMs: 10_000 });
  });

  it("admits the first events of a batch that fit, and waits for the ones the window must free", () => {
    // 18 of 20 used: 2 of 5 fit; one more needs the oldest entry (at T - 40 s) to leave.
    const log = [
      { at: T - 40_000, n: 3 },
      { at: T - 5_000, n: 15 },
    ];
    expect(admit(log, T, 20, 5)).toEqual({ admitted: 2, remaining: 0, retryAfterMs: 20_000 });
    // Nothing used: the batch's own events are the oldest.
    expect(admit([], T, 20, 25)).toEqual({ admitted: 20, remaining: 0, retryAfterMs: WINDOW_MS });
  });

  it("slides: an entry leaves exactly one window after it was counted, whatever the clock's minute", () => {
    const log = [{ at: T, n: 20 }];
    expect(admit(log, T + WINDOW_MS - 1, 20, 1).admitted).toBe(0);
    expect(admit(log, T + WINDOW_MS - 1, 20, 1).retryAfterMs).toBe(1);
    expect(admit(log, T + WINDOW_MS, 20, 1)).toEqual({ admitted: 1, remaining: 19, retryAfterMs: 0 });
  });
  it("never asks to wait longer than one window, also when a request read the clock before events counted after it", () => {
    // Another request, whose clock read 1.2 s later, was counted first: one more fits within a minute of now all the
    // same.
    expect(admit([{ at: T + 1_200, n: 20 }], T, 20, 1)).toEqual({ admitted: 0, remaining: 0, retryAfterMs: WINDOW_MS });
  });
});

describe("record", () => {
  it("merges an instant and keeps the log ascending when events arrive out of order", () => {
    const log: WindowEntry[] = [];
    record(log, T, 1);
    record(log, T, 2);
    record(log, T + 5, 1);
    record(log, T + 2, 4);
    expect(log).toEqual([
      { at: T, n: 3 },
      { at: T + 2, n: 4 },
      { at: T + 5, n: 1 },
    ]);
  });
});
