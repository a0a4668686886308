export interface FolderImport {
  from: string;
  to: string;
  file: string;
  spec: string;
  target: string;
}

export declare const LAYERS: Record<string, number>;
export declare const MAX_AREA_IMPORTERS: number;
export declare const CHANNELS: Record<string, string>;
export declare function folderImports(): FolderImport[];
export declare function layerProblems(imports: FolderImport[]): string[];
export declare function featureAreas(): string[];
export declare function importersOf(imports: FolderImport[], folders: string[]): Map<string, Set<string>>;
export declare function reachProblems(imports: FolderImport[]): string[];
