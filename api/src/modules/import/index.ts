/** The import module's public entry: the run of an import, its schedule and its status file. */
export * from './schemas.ts';
export * from './schedule.ts';
export * from './run-import.ts';
