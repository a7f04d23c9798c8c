import type { ComponentType } from 'react';

/**
 * Contract between the shell and the remotes. Every exposed module default-exports a page or
 * section component that takes no required props: routing state comes from the shared router,
 * the session from the shared jotai store, data from the shared query client.
 */
export type RemotePageModule = { default: ComponentType };
