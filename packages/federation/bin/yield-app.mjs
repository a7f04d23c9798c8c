#!/usr/bin/env node
// Runs the TypeScript CLI through tsx (node 20 cannot strip types itself).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
