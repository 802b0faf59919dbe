/**
 * Face recognition said in a list (docs/scoring.md §13): "detect, recognize, and analyze human
 * faces", "face detection, recognition and attribute analysis", "face and gesture recognition".
 * A whole phrase ("face recognition") is not said there, yet the verb or noun of recognition or
 * identification is attached to faces by the list. Read as words and list separators, never as
 * substrings: "interface", "surface", "typeface", "faceted", "user-facing" hold no word `face`;
 * the verb ("face the music", "face towards"), emoji names ("grinning face with smiling eyes"),
 * a graph's or a font's faces and "Hugging Face" are attached to no verb or noun of the lists.
 * Detecting, tracking or verifying faces alone names no Annex III(1) use (biometric verification
 * is left out of it), so only recognition and identification count.
 *
 * One pass over the words, and from each face word or recognition noun a walk over at most
 * MAX_ITEMS list items, back or forth: time linear in the text (test/hostile/super-linear.test.ts).
 */

/** The rule phrases (report/ai-act.ts, biometrics) a list can say. */
type FaceWord = 'face recognition' | 'face identification';

/** Verbs whose object can be faces; those of recognition and identification name the phrase. */
const VERBS: ReadonlyMap<string, FaceWord | null> = new Map([
  ...['recognize', 'recognise', 'recognizes', 'recognises', 'recognizing', 'recognising'].map((w) => [w, 'face recognition'] as const),
  ...['identify', 'identifies', 'identifying'].map((w) => [w, 'face identification'] as const),
  ...[
    'detect', 'detects', 'detecting', 'verify', 'verifies', 'verifying', 'analyze', 'analyse', 'analyzes', 'analyses', 'analyzing', 'analysing',
    'track', 'tracks', 'tracking', 'compare', 'compares', 'comparing', 'match', 'matches', 'matching', 'locate', 'locates', 'find', 'finds',
    'cluster', 'clusters', 'group', 'groups', 'crop', 'align', 'blur', 'count', 'describe', 'classify', 'capture', 'extract', 'search',
  ].map((w) => [w, null] as const),
]);

/** Nouns of what is done with faces; those of recognition and identification name the phrase. */
const NOUNS: ReadonlyMap<string, FaceWord | null> = new Map([
  ['recognition', 'face recognition'],
  ['identification', 'face identification'],
  ...[
    'detection', 'verification', 'analysis', 'tracking', 'clustering', 'comparison', 'matching', 'alignment', 'landmarks', 'liveness', 'search',
    'grouping', 'description', 'embedding', 'embeddings', 'attributes', 'segmentation', 'capture', 'retrieval', 'estimation',
  ].map((w) => [w, null] as const),
]);

/** Words that may stand between a list of verbs (or `of`) and its faces: "analyze human faces". */
const MODIFIERS: ReadonlySet<string> = new Set(['a', 'the', 'human', 'humans', "people's", 'multiple', 'known', 'unknown', 'similar', 'individual', 'their', 'your', 'all', 'any', 'real']);
/** Words after a face that is the object itself: "recognize the face in a photo". */
const AFTER_OBJECT: ReadonlySet<string> = new Set(['in', 'on', 'from', 'for', 'with', 'of', 'using', 'to', 'by', 'at', 'as', 'it', 'that', 'which', 'then']);
const SEPARATOR_WORDS: ReadonlySet<string> = new Set(['and', 'or']);
/** Items a list is read back over, at most. */
const MAX_ITEMS = 8;

/** A word (lower case), a list separator, or anything else (a break no list crosses). */
type Token = string | typeof SEP | typeof BREAK;
const SEP = 1;
const BREAK = 0;

/** Words, separators (`,` `&` `/` and, or: a run of them is one) and breaks; spaces, `-` and `_` only part words. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/([\p{L}\p{N}]+(?:['’]\p{L}+)?)|([,&/])|([\s_-]+)|[^]/gu)) {
    if (m[3] !== undefined) continue;
    let token: Token = BREAK;
    if (m[1] !== undefined) {
      const word = m[1].toLowerCase().replace('’', "'");
      token = SEPARATOR_WORDS.has(word) ? SEP : word;
    } else if (m[2] !== undefined) token = SEP;
    if (token === SEP && out.at(-1) === SEP) continue;
    out.push(token);
  }
  return out;
}

/**
 * The items of a list that ends at `end` (inclusive), read backwards: one word each, known to
 * `vocabulary`, separated by separators; the phrases they name are added to `found`.
 */
function listBefore(toks: readonly Token[], end: number, vocabulary: ReadonlyMap<string, FaceWord | null>, found: Set<FaceWord>): void {
  let i = end;
  for (let items = 0; items < MAX_ITEMS && i >= 0; items += 1) {
    const token = toks[i];
    if (typeof token !== 'string' || !vocabulary.has(token)) return;
    const named = vocabulary.get(token);
    if (named) found.add(named);
    if (toks[i - 1] !== SEP) return;
    i -= 2;
  }
}

/** The biometrics rule's phrases that a list of verbs or nouns attached to faces says. */
export function faceListWords(text: string): FaceWord[] {
  const toks = tokens(text);
  const found = new Set<FaceWord>();
  for (let i = 0; i < toks.length; i += 1) {
    const token = toks[i];
    if (typeof token !== 'string') continue;
    // "face mask", "face images": a singular face before another word names that word, not faces.
    if (token === 'faces' || (token === 'face' && (typeof toks[i + 1] !== 'string' || AFTER_OBJECT.has(toks[i + 1] as string)))) {
      // Verbs, or nouns with `of`, before the faces: "detect, recognize, and analyze human faces".
      let j = i - 1;
      for (let skipped = 0; skipped < 2 && typeof toks[j] === 'string' && MODIFIERS.has(toks[j] as string); skipped += 1) j -= 1;
      if (toks[j] === 'of') listBefore(toks, j - 1, NOUNS, found);
      else listBefore(toks, j, VERBS, found);
    }
    if ((token === 'face' || token === 'faces' || token === 'facial') && toks[i - 1] !== 'hugging') {
      // Nouns after the face word, one or two words an item, the recognition noun bare:
      // "face detection, recognition and attribute analysis" (not "face detection and speech recognition").
      let j = i + 1;
      for (let items = 0; items < MAX_ITEMS; items += 1) {
        const first = toks[j];
        const second = toks[j + 1];
        if (typeof first !== 'string') break;
        if (NOUNS.has(first) && (typeof second !== 'string' || !NOUNS.has(second))) {
          // The first item is the whole phrase ("face recognition"), or another ("facial recognition").
          const named = items > 0 ? NOUNS.get(first) : null;
          if (named) found.add(named);
          j += 1;
        } else if (typeof second === 'string' && NOUNS.has(second)) {
          j += 2;
        } else break;
        if (toks[j] !== SEP) break;
        j += 1;
      }
    }
    const named = NOUNS.get(token);
    if (named && toks[i - 1] !== SEP && typeof toks[i - 1] === 'string') {
      // Subjects listed before the recognition noun: "face and gesture recognition", "face, iris and fingerprint recognition".
      let j = i - 1;
      for (let items = 0; items < MAX_ITEMS && typeof toks[j] === 'string'; items += 1) {
        const subject = toks[j] as string;
        if (items > 0 && (subject === 'face' || subject === 'faces' || subject === 'facial') && toks[j - 1] !== 'hugging') {
          found.add(named);
          break;
        }
        if (toks[j - 1] !== SEP) break;
        j -= 2;
      }
    }
  }
  return [...found];
}
