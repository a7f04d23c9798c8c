/** The confirmation caps alerts and the mailing list share: the port and the records of each adapter. */
export * from './port.ts';
export * from './file-records.ts';
export * from './pg-store.ts';
