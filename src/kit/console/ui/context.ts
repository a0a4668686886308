import { createContext, useContext } from "hono/jsx";
import type { ConsoleSession } from "../sessions";
import type { Notice } from "../http";
import type { NavEntry } from "./nav";

/** What every component of a page may read: who is signed in, the form token, the app shown. */
export interface PageContext {
  session: ConsoleSession;
  app: { app_id: string; name: string; default_language: string } | null;
  /** The first apps by name, for the app switcher. */
  apps: { app_id: string; name: string }[];
  moreApps: boolean;
  section: string;
  notice: Notice | null;
  /** The app's navigation: its dashboard, the areas' entries, its own pages. */
  appNav: NavEntry[];
}

export const Page = createContext<PageContext | null>(null);

export function usePage(): PageContext {
  const page = useContext(Page);
  if (!page) throw new Error("console component rendered outside a page");
  return page;
}
