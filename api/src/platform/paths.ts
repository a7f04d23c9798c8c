/**
 * Where the API is installed: its package folder and the data directory it ships (the default of
 * DATA_DIR). A leaf module, so that the configuration and the scripts that write the data can both
 * import it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DEFAULT_DATA_DIR = path.join(API_ROOT, 'data');
