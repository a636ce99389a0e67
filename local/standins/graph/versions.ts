import { GraphError } from './graph-error.ts';

/**
 * The Graph API versions the emulator answers, as Meta's versions table lists them (docs/platform-2027.md §7):
 * v2.0 to v2.12, v3.0 to v3.3, then v4.0 to v27.0 (released 2026-11-04). A version Meta no longer serves is
 * answered as the oldest it serves, as Meta does ("defaulted to the next oldest usable version"); any other
 * `v…` path segment is refused as Graph refuses it: 400, code 2500, "Unknown path components".
 */
const NEWEST_MAJOR = 27;
const MINORS_OF: Record<number, number> = { 2: 12, 3: 3 };

/** What the emulator answers differently per version (docs/platform-2027.md §7, upstream-facts §1.4). */
export interface VersionBehaviour {
  /** The version's major number (`24` for v24.0). */
  major: number;
  /** The error code of an invalid paging cursor on `message_templates`: 131059 from v24.0 (upstream-facts §1.4). */
  templateCursorError: number;
}

/** What a version of this major number answers differently. */
const behaviourOf = (major: number): VersionBehaviour => ({ major, templateCursorError: major >= 24 ? 131059 : 100 });

/** The newest version's behaviour: a path that names no version, and the model called in process. */
export const NEWEST_BEHAVIOUR = behaviourOf(NEWEST_MAJOR);

/** Whether Meta's versions table lists `v<major>.<minor>`. */
export function isGraphVersion(major: number, minor: number): boolean {
  if (major < 2 || major > NEWEST_MAJOR) return false;
  return minor >= 0 && minor <= (MINORS_OF[major] ?? 0);
}

/**
 * The version a path's first segment names, taken off `segments`: its behaviour, or the newest's when the path
 * names none. Throws Graph's refusal for a version Meta never released (`v99.0`, `v24.5`).
 */
export function takeVersion(segments: string[]): VersionBehaviour {
  const named = /^v(\d+)(?:\.(\d+))?$/.exec(segments[0] ?? '');
  if (!named) return NEWEST_BEHAVIOUR;
  const [, major, minor] = named;
  if (minor === undefined || !isGraphVersion(Number(major), Number(minor)))
    throw new GraphError(400, 2500, `Unknown path components: /${segments.slice(1).join('/')}`);
  segments.shift();
  return behaviourOf(Number(major));
}
