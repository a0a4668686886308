import { TextField, type FormState } from "./forms";

/**
 * The studio's key of a configuration object: how catalog documents name it across deployments.
 * Optional: a new object without one is keyed `<derived>-<id>`; a replace without one keeps it.
 */
export function KeyField(props: { form: FormState; name?: string; derived: string; isNew: boolean }) {
  const left = props.isNew
    ? `derived from the id (${props.derived}-<id>) when left empty`
    : "catalog documents refer to it; left empty, it stays as it is";
  return (
    <TextField
      form={props.form}
      name={props.name ?? "key"}
      label="Key"
      placeholder={props.isNew ? `${props.derived}-<id>` : undefined}
      autocomplete="off"
      help={`Stable name used by catalog as code (lower-case letters, digits, - and _); ${left}.`}
    />
  );
}
