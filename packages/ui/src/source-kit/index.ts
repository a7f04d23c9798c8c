/**
 * The source kit: how a source's risk charges, provenance, incidents, detected warnings and
 * links to other sites read, written once for every remote.
 */
export * from './charges.ts';
export { ExternalLink, NEW_TAB_NOTE, type ExternalLinkProps } from './ExternalLink.tsx';
export * from './DetectedWarnings.tsx';
export { IncidentBadge, incidentSentence } from './IncidentBadge.tsx';
export { ProvenanceLine } from './ProvenanceLine.tsx';
