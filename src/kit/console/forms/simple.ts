import { FormReader, type Decoded, type FormValues } from "../core/form";

/** Forms whose inputs are flat texts: API keys, webhook endpoints, console users. */

const decodeTexts =
  (names: readonly string[], optional: readonly string[] = []) =>
  (values: FormValues): Decoded => {
    const form = new FormReader(values);
    const input = Object.fromEntries(
      names.map((name) => [name, optional.includes(name) ? form.optionalText(name) : form.text(name)]),
    );
    return { input, problems: form.problems, values };
  };

export const decodeApiKey = decodeTexts(["name"]);
/** An empty secret lets the API generate one; an empty key keeps the current one (or derives one from the id). */
export const decodeWebhook = decodeTexts(["key", "webhook_type", "url", "secret_key"], ["key", "secret_key"]);
/** On edit, an empty password keeps the current one. */
export const decodeOperator = decodeTexts(["email", "display_name", "role", "password"], ["password"]);
