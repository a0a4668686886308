import type { ContentfulStatusCode } from "hono/utils/http-status";
import { deleteOperator, listOperators, requireOperator, type OperatorRow } from "../admin/repo";
import { OperatorInput, OperatorUpdate, MIN_PASSWORD_LENGTH } from "../admin/schemas";
import { createOperator, replaceOperator } from "../admin/service";
import { revokeOperatorSessions } from "../../kit/console/sessions";
import { CONSOLE_ROLES, ROLE_DESCRIPTIONS } from "../../kit/console/core/roles";
import {
  consoleActor,
  consoleRouter,
  guard,
  listQuery,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { decodeOperator } from "../../kit/console/forms/simple";
import { submitForm } from "../../kit/console/forms/submit";
import {
  DeleteButton,
  emptyForm,
  FormErrors,
  PostForm,
  SelectField,
  TextField,
  type FormState,
} from "../../kit/console/ui/forms";
import { EmptyState, Pager, SearchForm, StatusBadge, Table, Time } from "../../kit/console/ui/lists";
import { PageHeader, renderPage } from "../../kit/console/ui/render";

/** Console users (owners only): who may sign in, with which role; passwords, sessions. */

const ROLE_OPTIONS = CONSOLE_ROLES.map((r) => [r, `${r}: ${ROLE_DESCRIPTIONS[r]}`] as const);
const BASE = "/console/users";
const FIELDS = ["email", "display_name", "role", "password"];

function OperatorForm(props: { form: FormState; action: string; submit: string; isNew: boolean }) {
  const { form } = props;
  return (
    <PostForm action={props.action}>
      <FormErrors errors={form.errors} fields={FIELDS} />
      <TextField
        form={form}
        name="email"
        label="Email"
        type="email"
        required
        autocomplete="off"
        help="What the user signs in with."
      />
      <TextField form={form} name="display_name" label="Name" help="Shown in the console's corner." />
      <SelectField form={form} name="role" label="Role" options={ROLE_OPTIONS} />
      <TextField
        form={form}
        name="password"
        label={props.isNew ? "Password" : "New password"}
        type="password"
        required={props.isNew}
        autocomplete="new-password"
        help={`At least ${MIN_PASSWORD_LENGTH} characters.${props.isNew ? "" : " Empty: the password stays. A new password or role signs the user out everywhere."}`}
      />
      <button type="submit">{props.submit}</button>
    </PostForm>
  );
}

async function operatorsPage(c: ConsoleContext, form: FormState, status: ContentfulStatusCode = 200) {
  const list = listQuery(c);
  const { rows, total } = await listOperators(c.env.DB, list, list.search, Date.now());
  return renderPage(
    c,
    { title: "Console users", section: "users", status },
    <>
      <PageHeader
        title="Console users"
        lead="Who may sign in to this console, and with which role. The admin token always signs in as owner."
      />
      <SearchForm action={BASE} value={list.search} label="Search users" placeholder="Email or name" />
      <div id="list">
        {rows.length === 0 ? (
          <EmptyState>
            <p>
              {list.search
                ? "No console user matches."
                : "No console users yet: only the admin token signs in. Create one below."}
            </p>
          </EmptyState>
        ) : (
          <Table head={["Email", "Name", "Role", "Signed in on", "Created"]} numeric={[3]}>
            {rows.map((u) => (
              <tr>
                <td>
                  <a href={`${BASE}/${u.console_user_id}`}>{u.email}</a>
                </td>
                <td>{u.display_name || <span class="muted">—</span>}</td>
                <td>
                  <StatusBadge status={u.role} />
                </td>
                <td class="num">{u.active_sessions}</td>
                <td>
                  <Time iso={u.created_at} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager base={BASE} list={{ ...list, total }} />
      </div>
      <section class="panel">
        <h2>Add a console user</h2>
        <OperatorForm form={form} action={BASE} submit="Add user" isNew />
      </section>
    </>,
  );
}

function operatorPage(c: ConsoleContext, operator: OperatorRow, form: FormState, status: ContentfulStatusCode = 200) {
  const path = `${BASE}/${operator.console_user_id}`;
  const self = c.get("session").operatorId === operator.console_user_id;
  return renderPage(
    c,
    { title: operator.email, section: "users", status },
    <>
      <PageHeader
        title={operator.email}
        crumbs={[[BASE, "Console users"]]}
        actions={
          <>
            <PostForm
              action={`${path}/sign-out`}
              class="inline"
              swap="innerHTML"
              confirm={`Sign ${operator.email} out on every device?`}
            >
              <button type="submit" class="secondary">
                Sign out everywhere
              </button>
            </PostForm>
            {!self && <DeleteButton action={`${path}/delete`} confirm={`Delete the console user ${operator.email}?`} />}
          </>
        }
      />
      <OperatorForm form={form} action={path} submit="Save" isNew={false} />
    </>,
  );
}

const operatorForm = (u: OperatorRow) => emptyForm({ email: u.email, display_name: u.display_name, role: u.role });

export const operatorPages = consoleRouter()
  .get(BASE, async (c) => {
    guard(c, "administer");
    return operatorsPage(c, emptyForm({ role: "editor" }));
  })
  .post(BASE, async (c) => {
    guard(c, "administer");
    return submitForm(c, {
      decode: decodeOperator,
      schema: OperatorInput,
      save: async (input) => {
        const operator = await createOperator(c.env.DB, input, Date.now(), consoleActor(c));
        return redirectWithNotice(c, BASE, `${operator.email} can now sign in as ${operator.role}.`);
      },
      render: (form, status) => operatorsPage(c, form, status),
    });
  })
  .get(`${BASE}/:operatorId{[0-9]+}`, async (c) => {
    guard(c, "administer");
    const operator = await requireOperator(c.env.DB, c.req.param("operatorId"));
    return operatorPage(c, operator, operatorForm(operator));
  })
  .post(`${BASE}/:operatorId{[0-9]+}`, async (c) => {
    guard(c, "administer");
    const operator = await requireOperator(c.env.DB, c.req.param("operatorId"));
    return submitForm(c, {
      decode: decodeOperator,
      schema: OperatorUpdate,
      save: async (input) => {
        const saved = await replaceOperator(c.env.DB, operator, input, Date.now(), consoleActor(c));
        const signedOut = input.password !== undefined || input.role !== operator.role;
        return redirectWithNotice(
          c,
          c.req.path,
          `${saved.email} saved${signedOut ? " and signed out everywhere" : ""}.`,
        );
      },
      render: (form, status) => operatorPage(c, operator, form, status),
    });
  })
  .post(`${BASE}/:operatorId{[0-9]+}/sign-out`, async (c) => {
    guard(c, "administer");
    const operator = await requireOperator(c.env.DB, c.req.param("operatorId"));
    await revokeOperatorSessions(c.env.DB, operator.console_user_id, Date.now());
    return redirectWithNotice(c, `${BASE}/${operator.console_user_id}`, `${operator.email} is signed out everywhere.`);
  })
  .post(`${BASE}/:operatorId{[0-9]+}/delete`, async (c) => {
    guard(c, "administer");
    const operator = await requireOperator(c.env.DB, c.req.param("operatorId"));
    await deleteOperator(c.env.DB, operator, consoleActor(c));
    return redirectWithNotice(c, BASE, `${operator.email} deleted.`);
  });
