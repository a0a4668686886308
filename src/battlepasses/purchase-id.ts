import { sha256Hex } from "../shared/crypto";

/**
 * SCILL's `BattlePassUnlockInfo.purchase_id`: a string of digits, the same every time for one user
 * and one pass. It is derived, not stored, so passes unlocked before it existed have one too: the
 * first 60 bits of a SHA-256 of the app, user and pass (at most 19 digits, so it fits a signed
 * 64-bit integer for clients that parse it as a number).
 */
export async function purchaseId(appId: string, userId: string, battlePassId: string): Promise<string> {
  const hex = await sha256Hex(`battle-pass-purchase:${JSON.stringify([appId, userId, battlePassId])}`);
  return BigInt(`0x${hex.slice(0, 15)}`).toString();
}
