import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// Queries resolve after fetches and lazy modules; on a busy 2-core machine that can exceed 1 s.
configure({ asyncUtilTimeout: 10_000 });
import '@yield/fixtures/setup';
