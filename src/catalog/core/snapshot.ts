export type { CatalogSnapshot } from "../../kit/catalog";
