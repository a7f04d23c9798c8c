import '@testing-library/jest-dom/vitest';
import '@yield/fixtures/setup';
