import type { ContentfulStatusCode } from "hono/utils/http-status";
import { deleteConsoleUser, listConsoleUsers, requireConsoleUser, type ConsoleUserRow } from "../admin/repo";
import { ConsoleUserInput, ConsoleUserUpdate, MIN_PASSWORD_LENGTH } from "../admin/schemas";
import { createConsoleUser, replaceConsoleUser } from "../admin/service";
import { revokeUserSessions } from "../../kit/console/sessions";
import { CONSOLE_ROLES, ROLE_DESCRIPTIONS } from "../../kit/console/core/roles";
import {
  consoleActor,
  consoleRouter,
  guard,
  listQuery,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { decodeConsoleUser } from "../../kit/console/forms/simple";
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

function UserForm(props: { form: FormState; action: string; submit: string; isNew: boolean }) {
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

async function usersPage(c: ConsoleContext, form: FormState, status: ContentfulStatusCode = 200) {
  const list = listQuery(c);
  const { rows, total } = await listConsoleUsers(c.env.DB, list, list.search, Date.now());
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
        <UserForm form={form} action={BASE} submit="Add user" isNew />
      </section>
    </>,
  );
}

function userPage(c: ConsoleContext, user: ConsoleUserRow, form: FormState, status: ContentfulStatusCode = 200) {
  const path = `${BASE}/${user.console_user_id}`;
  const self = c.get("session").consoleUserId === user.console_user_id;
  return renderPage(
    c,
    { title: user.email, section: "users", status },
    <>
      <PageHeader
        title={user.email}
        crumbs={[[BASE, "Console users"]]}
        actions={
          <>
            <PostForm
              action={`${path}/sign-out`}
              class="inline"
              swap="innerHTML"
              confirm={`Sign ${user.email} out on every device?`}
            >
              <button type="submit" class="secondary">
                Sign out everywhere
              </button>
            </PostForm>
            {!self && <DeleteButton action={`${path}/delete`} confirm={`Delete the console user ${user.email}?`} />}
          </>
        }
      />
      <UserForm form={form} action={path} submit="Save" isNew={false} />
    </>,
  );
}

const userForm = (u: ConsoleUserRow) => emptyForm({ email: u.email, display_name: u.display_name, role: u.role });

export const userPages = consoleRouter()
  .get(BASE, async (c) => {
    guard(c, "administer");
    return usersPage(c, emptyForm({ role: "editor" }));
  })
  .post(BASE, async (c) => {
    guard(c, "administer");
    return submitForm(c, {
      decode: decodeConsoleUser,
      schema: ConsoleUserInput,
      save: async (input) => {
        const user = await createConsoleUser(c.env.DB, input, Date.now(), consoleActor(c));
        return redirectWithNotice(c, BASE, `${user.email} can now sign in as ${user.role}.`);
      },
      render: (form, status) => usersPage(c, form, status),
    });
  })
  .get(`${BASE}/:userId{[0-9]+}`, async (c) => {
    guard(c, "administer");
    const user = await requireConsoleUser(c.env.DB, c.req.param("userId"));
    return userPage(c, user, userForm(user));
  })
  .post(`${BASE}/:userId{[0-9]+}`, async (c) => {
    guard(c, "administer");
    const user = await requireConsoleUser(c.env.DB, c.req.param("userId"));
    return submitForm(c, {
      decode: decodeConsoleUser,
      schema: ConsoleUserUpdate,
      save: async (input) => {
        const saved = await replaceConsoleUser(c.env.DB, user, input, Date.now(), consoleActor(c));
        const signedOut = input.password !== undefined || input.role !== user.role;
        return redirectWithNotice(
          c,
          c.req.path,
          `${saved.email} saved${signedOut ? " and signed out everywhere" : ""}.`,
        );
      },
      render: (form, status) => userPage(c, user, form, status),
    });
  })
  .post(`${BASE}/:userId{[0-9]+}/sign-out`, async (c) => {
    guard(c, "administer");
    const user = await requireConsoleUser(c.env.DB, c.req.param("userId"));
    await revokeUserSessions(c.env.DB, user.console_user_id, Date.now());
    return redirectWithNotice(c, `${BASE}/${user.console_user_id}`, `${user.email} is signed out everywhere.`);
  })
  .post(`${BASE}/:userId{[0-9]+}/delete`, async (c) => {
    guard(c, "administer");
    const user = await requireConsoleUser(c.env.DB, c.req.param("userId"));
    await deleteConsoleUser(c.env.DB, user, consoleActor(c));
    return redirectWithNotice(c, BASE, `${user.email} deleted.`);
  });
