import { AGGREGATIONS } from "../catalog";
import {
  CheckboxField,
  FormErrors,
  LocalizedField,
  PostForm,
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
import { LeaderboardFields } from "../admin/schemas";

const FIELDS = fieldsOf(LeaderboardFields.shape);

const AGGREGATION_TEXT: Record<string, string> = {
  sum: "sum: adds every event's value",
  max: "max: keeps the highest value",
  min: "min: keeps the lowest value",
  last: "last: keeps the newest value",
};

/** What keeps the board fair (docs/fair-play.md): who may write it, and which submissions wait for review. */
function FairPlayFields({ form }: { form: FormState }) {
  return (
    <fieldset class="form-section">
      <legend>Fair play</legend>
      <CheckboxField
        form={form}
        name="authoritative"
        label="Only the studio's backend writes scores"
        help="Only events sent with an API key change this board; a game client's event still counts for challenges and battle passes."
      />
      <div class="grid three">
        <TextField
          form={form}
          name="min_value"
          label="Lowest value"
          type="number"
          help="Of one event, not of the score. Empty: none. Below it the event is held for review."
        />
        <TextField
          form={form}
          name="max_value"
          label="Highest value"
          type="number"
          help="Of one event. Empty: none. Above it the event is held for review."
        />
        <TextField
          form={form}
          name="max_events_per_minute"
          label="Events per player a minute"
          type="number"
          min="1"
          help="Past it, a player's events on this board are held for review. Empty: no limit."
        />
      </div>
    </fieldset>
  );
}

export function LeaderboardForm(props: {
  form: FormState;
  action: string;
  defaultLanguage: string;
  submit: string;
  isNew: boolean;
}) {
  const { form } = props;
  return (
    <PostForm action={props.action} class="wide-form">
      <FormErrors errors={form.errors} fields={FIELDS} />
      <EventCatalogData />
      <fieldset disabled={form.readOnly}>
        <LocalizedField form={form} name="name" label="Name" required defaultLanguage={props.defaultLanguage} />
        <KeyField form={form} derived="leaderboard" isNew={props.isNew} />
        <div class="grid two">
          <EventNameField form={form} name="event_name" optional />
          <ValueFieldField form={form} name="value_field" eventField="event_name" what="holds the score" />
        </div>
        <FiltersField form={form} name="filters" eventField="event_name" />
        <TextField
          form={form}
          name="points_system"
          label="Points system (instead of an event)"
          help="The key of a points system: the board then ranks what players earn in it, and the event fields are left empty."
        />
        <div class="grid two">
          <SelectField
            form={form}
            name="aggregation"
            label="Aggregation"
            options={AGGREGATIONS.map((a) => [a, AGGREGATION_TEXT[a]] as const)}
          />
          <CheckboxField
            form={form}
            name="sort_order_ascending"
            label="Lower scores rank first"
            help="For lap times and the like. Changing it starts a new, empty season."
          />
        </div>
        <div class="grid three">
          <SelectField
            form={form}
            name="period_range"
            label="Season reset"
            options={PERIOD_OPTIONS}
            help="A reset starts an empty board; changing the schedule starts a new season at once."
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
        <FairPlayFields form={form} />
        {!form.readOnly && <button type="submit">{props.submit}</button>}
      </fieldset>
    </PostForm>
  );
}
