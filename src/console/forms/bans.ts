import type { BanRow } from "../../auth/bans";
import { toIso } from "../../shared/clock";
import { FormReader, type Decoded, type FormValues } from "../../kit/console/core/form";
import { dateTimeToForm, readDateTime } from "../../kit/console/forms/common";

/** The ban form: values ⇄ the admin API's BanInput; the expiry is entered in UTC, empty for "until lifted". */

export const banToForm = (ban: BanRow | null): FormValues => ({
  reason: ban?.reason ?? "",
  expires_at: ban?.expires_at == null ? "" : dateTimeToForm(toIso(ban.expires_at)),
});

export function decodeBan(values: FormValues): Decoded {
  const form = new FormReader(values);
  const input = { reason: form.optionalText("reason"), expires_at: readDateTime(form, "expires_at") ?? null };
  return { input, problems: form.problems, values };
}
