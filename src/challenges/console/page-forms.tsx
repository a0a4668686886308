import type { CategoryRow } from "../rows";
import { COUNTER_SCOPE_HELP, COUNTER_SCOPE_OPTIONS, GOAL_CONDITION_OPTIONS } from "../../kit/console/ui/counter-fields";
import { localize } from "../../shared/localize";
import {
  emptyForm,
  CheckboxField,
  FormErrors,
  LocalizedField,
  PostForm,
  RadioField,
  SelectField,
  TextField,
  type FormState,
} from "../../kit/console/ui/forms";
import {
  EventCatalogData,
  EventNameField,
  FiltersField,
  PERIOD_OPTIONS,
  TimeZoneField,
  ValueFieldField,
} from "../../kit/console/ui/counter-fields";
import { KeyField } from "../../kit/console/ui/key-field";
import { fieldsOf } from "../../kit/catalog";
import { CategoryInput, ChallengeFields } from "../admin/schemas";

/** The category and challenge forms, with help texts that say what the spec says of each field. */

const CATEGORY_FIELDS = fieldsOf(CategoryInput.shape);

export function CategoryForm(props: { form: FormState; action: string; defaultLanguage: string; submit: string }) {
  const { form } = props;
  return (
    <PostForm action={props.action}>
      <FormErrors errors={form.errors} fields={CATEGORY_FIELDS} />
      <fieldset disabled={form.readOnly}>
        <TextField
          form={form}
          name="category_slug"
          label="Slug"
          required
          help="Lower-case letters, digits, - and _ (at most 100): the category's stable key."
        />
        <LocalizedField
          form={form}
          name="category_name"
          label="Name"
          required
          defaultLanguage={props.defaultLanguage}
        />
        <TextField
          form={form}
          name="category_position"
          label="Position"
          type="number"
          min="0"
          help="Categories are listed by position, lowest first."
        />
        <CheckboxField
          form={form}
          name="is_daily_category"
          label="Daily category"
          help="Shows a different selection of its challenges each day, the same for every player."
        />
        <TextField
          form={form}
          name="daily_challenge_count"
          label="Challenges per day"
          type="number"
          min="1"
          help="In a daily category: how many of its challenges are offered each day (default 3)."
        />
        {!form.readOnly && <button type="submit">{props.submit}</button>}
      </fieldset>
    </PostForm>
  );
}

const CHALLENGE_FIELDS = ["key", ...fieldsOf(ChallengeFields.shape)];

export function ChallengeForm(props: {
  form: FormState;
  action: string;
  categories: CategoryRow[];
  defaultLanguage: string;
  submit: string;
  isNew: boolean;
}) {
  const { form } = props;
  const categories = props.categories.map(
    (c) =>
      [
        String(c.category_id),
        `${localize(JSON.parse(c.category_name), undefined, props.defaultLanguage)} (${c.category_slug})`,
      ] as const,
  );
  return (
    <PostForm action={props.action} class="wide-form">
      <FormErrors errors={form.errors} fields={CHALLENGE_FIELDS} />
      <EventCatalogData />
      <fieldset disabled={form.readOnly}>
        <section class="form-section">
          <h2>What the player sees</h2>
          <div class="grid two">
            <SelectField form={form} name="category_id" label="Category" required options={categories} />
            <KeyField form={form} derived="challenge" isNew={props.isNew} />
          </div>
          <LocalizedField
            form={form}
            name="challenge_name"
            label="Name"
            required
            defaultLanguage={props.defaultLanguage}
          />
          <LocalizedField
            form={form}
            name="challenge_description"
            label="Description"
            multiline
            defaultLanguage={props.defaultLanguage}
            help="May hold HTML; optional."
          />
          <div class="grid three">
            <TextField
              form={form}
              name="challenge_goal"
              label="Goal"
              type="number"
              min="0"
              required
              help="The counter value the challenge aims at."
            />
            <TextField
              form={form}
              name="challenge_duration_time"
              label="Duration (seconds)"
              type="number"
              help="Time from activation until the challenge is lost. -1: no time-out."
            />
            <TextField
              form={form}
              name="live_date"
              label="Live date (UTC)"
              type="datetime-local"
              help="Offered from this instant on. Empty: at once."
            />
          </div>
          <RadioField
            form={form}
            name="challenge_goal_condition"
            label="Goal condition"
            options={GOAL_CONDITION_OPTIONS}
          />
        </section>
        <section class="form-section">
          <h2>What counts</h2>
          <div class="grid two">
            <EventNameField form={form} name="event_name" />
            <ValueFieldField form={form} name="value_field" eventField="event_name" what="adds to the counter" />
          </div>
          <FiltersField form={form} name="filters" eventField="event_name" />
          <SelectField
            form={form}
            name="counter_scope"
            label="Counter scope"
            options={COUNTER_SCOPE_OPTIONS}
            help={COUNTER_SCOPE_HELP}
          />
        </section>
        <section class="form-section">
          <h2>Activation and resets</h2>
          <CheckboxField
            form={form}
            name="is_auto_activated"
            label="Automatic"
            help="Unlocked and activated for every player on first touch, and claimed by the service."
          />
          <CheckboxField
            form={form}
            name="repeatable"
            label="Repeatable"
            help="After a time-out or a cancellation the challenge is offered again."
          />
          <div class="grid three">
            <SelectField
              form={form}
              name="period_range"
              label="Period"
              options={PERIOD_OPTIONS}
              help="Periodic resets apply to automatic, repeatable challenges only."
            />
            <TextField
              form={form}
              name="period_range_reset_at_time"
              label="Reset time"
              placeholder="00:00:00"
              help="HH:MM:SS, 24-hour clock, in the time zone."
            />
            <TimeZoneField form={form} name="period_range_time_zone" />
          </div>
        </section>
        <section class="form-section">
          <h2>Reward</h2>
          <div class="grid three">
            <TextField form={form} name="challenge_reward" label="Reward" help="What the player gets, e.g. 100." />
            <TextField
              form={form}
              name="challenge_reward_type"
              label="Reward type"
              help="e.g. coin, item, experience."
            />
            <TextField form={form} name="challenge_xp" label="Experience points" type="number" />
            <TextField
              form={form}
              name="points_rewards"
              label="Points rewards"
              help="Credited to points systems when claimed, e.g. coins:50, gems:2."
            />
            <TextField
              form={form}
              name="challenge_price"
              label="Price"
              type="number"
              help="What unlocking costs in your game's currency; 0 for free."
            />
            <TextField form={form} name="challenge_icon" label="Icon" help="Image name or URL." />
            <TextField form={form} name="challenge_icon_hd" label="Icon (HD)" />
          </div>
        </section>
        {!form.readOnly && <button type="submit">{props.submit}</button>}
      </fieldset>
    </PostForm>
  );
}

/** A new challenge starts with the API's defaults, so that the form shows what saving it unchanged gives. */
export const newChallengeForm = (categoryId: string, defaultLanguage: string): FormState =>
  emptyForm({
    category_id: categoryId,
    "challenge_name.0.lang": defaultLanguage,
    challenge_goal_condition: "0",
    challenge_duration_time: "-1",
    challenge_price: "0",
    challenge_xp: "0",
    period_range: "never",
    period_range_reset_at_time: "00:00:00",
    period_range_time_zone: "UTC",
    counter_scope: "session",
  });
