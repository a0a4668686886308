import { rowsOf } from "../../kit/console/core/form";
import {
  AddRowButton,
  CheckboxField,
  FormErrors,
  LocalizedField,
  PostForm,
  RadioField,
  RemoveRowButton,
  SelectField,
  TextField,
  type FormState,
} from "../../kit/console/ui/forms";
import { EventCatalogData, EventNameField, FiltersField, ValueFieldField } from "../../kit/console/ui/counter-fields";
import { KeyField } from "../../kit/console/ui/key-field";
import { COUNTER_SCOPE_HELP, COUNTER_SCOPE_OPTIONS, GOAL_CONDITION_OPTIONS } from "../../kit/console/ui/counter-fields";
import { fieldsOf } from "../../kit/catalog";
import { BattlePassFields, LevelFields } from "../admin/schemas";

/** The battle pass and level forms, with the spec's meaning of each field as help. */

// Whether the player may unlock the pass is set through the API only.
const PASS_FIELDS = ["key", ...fieldsOf(BattlePassFields.shape, "backend_only_unlock")];

export function PassForm(props: {
  form: FormState;
  action: string;
  defaultLanguage: string;
  submit: string;
  isNew: boolean;
}) {
  const { form } = props;
  const lang = props.defaultLanguage;
  return (
    <PostForm action={props.action} class="wide-form">
      <FormErrors errors={form.errors} fields={PASS_FIELDS} />
      <fieldset disabled={form.readOnly}>
        <section class="form-section">
          <h2>What the player sees</h2>
          <LocalizedField form={form} name="battle_pass_name" label="Name" required defaultLanguage={lang} />
          <KeyField form={form} derived="battle-pass" isNew={props.isNew} />
          <LocalizedField
            form={form}
            name="battle_pass_short_description"
            label="Short description"
            defaultLanguage={lang}
          />
          <LocalizedField
            form={form}
            name="battle_pass_description"
            label="Description"
            multiline
            defaultLanguage={lang}
          />
          <LocalizedField
            form={form}
            name="battle_pass_disclaimer"
            label="Disclaimer"
            multiline
            defaultLanguage={lang}
          />
          <TextField form={form} name="read_more_link" label="Read more link" type="url" />
        </section>
        <section class="form-section">
          <h2>Season</h2>
          <div class="grid three">
            <TextField
              form={form}
              name="start_date"
              label="Start (UTC)"
              type="datetime-local"
              required
              help="Events count from this instant."
            />
            <TextField
              form={form}
              name="end_date"
              label="End (UTC)"
              type="datetime-local"
              required
              help="After it nothing counts and battlepass-expired is sent once."
            />
            <TextField
              form={form}
              name="battle_pass_priority"
              label="Priority"
              type="number"
              help="Passes are listed by priority, lowest first."
            />
          </div>
          <CheckboxField
            form={form}
            name="is_active"
            label="Active"
            help="A switched-off pass is not offered and tracks nothing."
          />
          <CheckboxField
            form={form}
            name="is_unlocked_incrementally"
            label="Levels unlock one after the other"
            help="Off: players may activate any level."
          />
        </section>
        <section class="form-section">
          <h2>Store</h2>
          <CheckboxField form={form} name="can_purchase_with_money" label="Can be bought with money" />
          <CheckboxField form={form} name="can_purchase_with_coins" label="Can be bought with coins" />
          <div class="grid two">
            <TextField form={form} name="package_sku_ios" label="iOS package SKU" />
            <TextField form={form} name="package_sku_android" label="Android package SKU" />
          </div>
        </section>
        <section class="form-section">
          <h2>Images</h2>
          <div class="grid three">
            {(["image_xs", "image_s", "image_m", "image_l", "image_xl"] as const).map((name) => (
              <TextField form={form} name={name} label={`Image ${name.slice(6).toUpperCase()}`} />
            ))}
          </div>
        </section>
        {!form.readOnly && <button type="submit">{props.submit}</button>}
      </fieldset>
    </PostForm>
  );
}

const REWARD_TYPES = [
  ["nothing", "nothing"],
  ["coin", "coin"],
  ["experience", "experience"],
  ["item", "item"],
] as const;
const REWARD_TYPE_NAMES = [
  ["", "derived from the reward type"],
  ["Coins", "Coins"],
  ["Voucher", "Voucher"],
  ["Money", "Money"],
  ["Experience", "Experience"],
] as const;
const LEVEL_FIELDS = ["key", ...fieldsOf(LevelFields.shape)];

function LevelChallenge(props: { form: FormState; index: number; count: number; defaultLanguage: string }) {
  const { form, index } = props;
  const at = (name: string) => `challenges.${index}.${name}`;
  const id = form.values[at("challenge_id")];
  return (
    <fieldset class="form-section level-challenge">
      <legend>
        Challenge {index + 1}
        {id ? <span class="muted"> · id {id}</span> : <span class="muted"> · new</span>}
      </legend>
      {id && <input type="hidden" name={at("challenge_id")} value={id} />}
      <LocalizedField
        form={form}
        name={at("challenge_name")}
        label="Name"
        required
        defaultLanguage={props.defaultLanguage}
      />
      <KeyField form={form} name={at("key")} derived="challenge" isNew={!id} />
      <div class="grid three">
        <TextField form={form} name={at("challenge_goal")} label="Goal" type="number" min="0" required />
        <TextField form={form} name={at("challenge_xp")} label="Experience points" type="number" min="0" />
        <SelectField
          form={form}
          name={at("counter_scope")}
          label="Counter scope"
          options={COUNTER_SCOPE_OPTIONS}
          help={COUNTER_SCOPE_HELP}
        />
      </div>
      <RadioField
        form={form}
        name={at("challenge_goal_condition")}
        label="Goal condition"
        options={GOAL_CONDITION_OPTIONS}
      />
      <div class="grid two">
        <EventNameField form={form} name={at("event_name")} />
        <ValueFieldField
          form={form}
          name={at("value_field")}
          eventField={at("event_name")}
          what="adds to the counter"
        />
      </div>
      <FiltersField form={form} name={at("filters")} eventField={at("event_name")} />
      <div class="grid two">
        <TextField form={form} name={at("challenge_icon")} label="Icon" />
        <TextField form={form} name={at("challenge_icon_hd")} label="Icon (HD)" />
      </div>
      {props.count > 1 && (
        <RemoveRowButton row={`challenges.${index}`} label={`Remove challenge ${index + 1}`} readOnly={form.readOnly} />
      )}
    </fieldset>
  );
}

export function LevelForm(props: {
  form: FormState;
  action: string;
  defaultLanguage: string;
  submit: string;
  isNew: boolean;
}) {
  const { form } = props;
  const challenges = rowsOf(form.values, "challenges");
  const shown = challenges.length > 0 ? challenges : [{}];
  return (
    <PostForm action={props.action} class="wide-form">
      <FormErrors errors={form.errors} fields={LEVEL_FIELDS} />
      <EventCatalogData />
      <fieldset disabled={form.readOnly}>
        <section class="form-section">
          <h2>Reward</h2>
          <div class="grid three">
            <TextField form={form} name="reward_amount" label="Reward amount" help="What the level gives, e.g. 100." />
            <TextField
              form={form}
              name="points_rewards"
              label="Points rewards"
              help="Credited to points systems when claimed, e.g. coins:50."
            />
            <SelectField form={form} name="level_reward_type" label="Reward type" options={REWARD_TYPES} />
            <SelectField
              form={form}
              name="reward_type_name"
              label="Reward type name"
              options={REWARD_TYPE_NAMES}
              help="Deprecated by the spec; kept for old clients."
            />
          </div>
          <TextField
            form={form}
            name="reward_webhook_url"
            label="Level reward webhook"
            type="url"
            placeholder="https://game.example.com/hooks/level-reward"
            help="Receives battlepass-level-reward-claimed for this level instead of the app's endpoints of that type. It is signed with the secret of the app's first battlepass-level-reward-claimed endpoint, which must exist. Empty: the app's endpoints."
          />
          <div class="grid two">
            <TextField
              form={form}
              name="level_priority"
              label="Position"
              type="number"
              min="0"
              help="Levels are played in position order. Empty on a new level: after the last one."
            />
            <KeyField form={form} derived="level" isNew={props.isNew} />
          </div>
        </section>
        {shown.map((_, i) => (
          <LevelChallenge form={form} index={i} count={shown.length} defaultLanguage={props.defaultLanguage} />
        ))}
        <p>
          <AddRowButton list="challenges" label="Add a challenge" readOnly={form.readOnly} />
        </p>
        {!form.readOnly && <button type="submit">{props.submit}</button>}
      </fieldset>
    </PostForm>
  );
}
