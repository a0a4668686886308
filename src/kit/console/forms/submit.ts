import type { z } from "@hono/zod-openapi";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorStatus } from "../../../shared/errors";
import { isDomainError } from "../../../shared/domain-errors";
import { editRows, errorsOf, problemsOfIssues, type Decoded, type FormValues } from "../core/form";
import { readForm, type ConsoleContext } from "../http";
import type { FormState } from "../ui/forms";
import { emptyRowFor } from "./common";

/**
 * One submitted form, start to end: an add or remove button re-renders it; otherwise the values
 * are decoded and validated with the admin API's own zod schema, then saved with the same
 * function the API's handler calls. Problems (the schema's, or a domain error's) come back
 * next to their fields with everything typed kept; a saved form ends in `save`'s answer.
 */
export interface FormSubmission<S extends z.ZodType> {
  decode: (values: FormValues) => Decoded;
  schema: S;
  /** Forms with lists (languages, filters, challenges) add rows with texts in this language. */
  defaultLanguage?: string;
  save: (input: z.infer<S>) => Promise<Response>;
  render: (form: FormState, status: ContentfulStatusCode) => Response | Promise<Response>;
}

export async function submitForm<S extends z.ZodType>(c: ConsoleContext, s: FormSubmission<S>): Promise<Response> {
  const values = await readForm(c);
  const edited = s.defaultLanguage === undefined ? null : editRows(values, emptyRowFor(s.defaultLanguage));
  if (edited) return s.render({ values: edited, errors: {} }, 200);

  const decoded = s.decode(values);
  const parsed = s.schema.safeParse(decoded.input);
  // A value the form could not read (not a number) is reported once, not again as missing.
  const unreadable = new Set(decoded.problems.map((p) => p.field));
  const problems = [
    ...decoded.problems,
    ...(parsed.success
      ? []
      : problemsOfIssues(parsed.error.issues, decoded.input).filter((p) => !unreadable.has(p.field))),
  ];
  if (problems.length > 0 || !parsed.success)
    return s.render({ values: decoded.values, errors: errorsOf(problems) }, 400);

  try {
    return await s.save(parsed.data);
  } catch (err) {
    if (!isDomainError(err, "invalid", "conflict", "not-found", "forbidden")) throw err;
    const errors = err.problems && err.problems.length > 0 ? errorsOf(err.problems) : { form: [err.message] };
    return s.render({ values: decoded.values, errors }, errorStatus(err));
  }
}
