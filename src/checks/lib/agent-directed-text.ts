/**
 * Text in a package's metadata that speaks to the AI agent reading it (docs/checks.md,
 * `agent-directed-text`): words that override an agent's instructions, claims addressed to an
 * agent that the package is safe or verified or that the user need not be asked, chat-template
 * and role tokens, and text hidden from the human reader in Unicode tag characters. READMEs of AI
 * tools legitimately talk about agents, prompts and assistants, so plain mentions never count:
 * only the phrasing below does. Every pattern is bounded between its anchors (linear in the text).
 */
import { ReadmeLineReader } from '../../util/readme-lines.js';
import { REVIEWER_DIRECTED } from './agent-code.js';

export type AgentTextKind = 'override' | 'safety-claim' | 'chat-token' | 'hidden-tags';

export interface AgentTextFinding {
  kind: AgentTextKind;
  /** The sanitised text around the match (for `hidden-tags`, the hidden text decoded). */
  excerpt: string;
  /** The match sits inside an HTML comment (a README's text the rendered page hides). */
  inComment: boolean;
}

/** Words that set aside the agent's own instructions (beyond the reviewer-directed ones of lib/agent-code.ts). */
const OVERRIDE =
  /\b(?:ignore|disregard|forget|override|bypass)\s{1,4}(?:all\s{1,4}|any\s{1,4})?(?:of\s{1,4})?(?:the\s{1,4}|your\s{1,4})?(?:previous|prior|above|earlier|preceding|original|existing|system|safety|security)\s{1,4}(?:instructions|prompts?|rules|guidelines|directives|guardrails|policies)\b|\b(?:ignore|disregard|forget)\s{1,4}(?:all\s{1,4})?your\s{1,4}(?:instructions|guidelines|rules|system\s{1,4}prompt)\b|\bnew\s{1,4}system\s{1,4}(?:prompt|instructions)\s{0,2}:|\byou\s{1,4}are\s{1,4}now\s{1,4}(?:in\s{1,4})?(?:developer\s{1,4}mode|god\s{1,4}mode|DAN|an?\s{1,4}unrestricted)\b/i;

/** A claim that needs no addressee: nobody but an agent is told that nerq vouched, or that the user need not hear of it. */
const CLAIM_UNADDRESSED =
  /\b(?:verified|vetted|approved|certified|audited|whitelisted|allowlisted|cleared|endorsed)\s{1,4}(?:as\s{1,4}[a-z]{1,12}\s{1,4})?by\s{1,4}nerq\b|\bnerq\s{1,4}(?:has\s{1,4}|have\s{1,4})?(?:verified|approved|certified|vetted|cleared|endorsed)\b|\b(?:no\s{1,4}need|(?:do\s{1,4}not|don't|doesn't|does\s{1,4}not)\s{1,4}need|(?:is\s{1,4})?unnecessary|not\s{1,4}necessary)\s{1,4}to\s{1,4}(?:ask|confirm\s{1,4}with|check\s{1,4}with|consult|notify|tell|warn|prompt|bother|inform)\s{1,4}the\s{1,4}user\b|\b(?:do\s{1,4}not|don't|never)\s{1,4}(?:tell|warn|inform|alert|notify)\s{1,4}the\s{1,4}user\b|\b(?:do\s{1,4}not|don't|never)\s{1,4}(?:mention|reveal|disclose|show)\s{1,4}(?:this|these)\s{1,4}(?:instructions?|message|note|text)\s{1,4}to\s{1,4}the\s{1,4}user\b|\b(?:install|add|run|execute|load|enable)\s{1,4}(?:it|this|me|this\s{1,4}(?:package|tool|server|module|skill|plugin|extension))\s{1,4}(?:[a-z]{1,12}\s{1,4}){0,4}?without\s{1,4}(?:asking|confirming\s{1,4}with|consulting|checking\s{1,4}with|telling|warning|notifying|prompting|bothering)\s{1,4}(?:the\s{1,4})?user\b/i;

/** A package vouched for by a scanner in the same sentence as "safe to install": a claim made to whoever decides on installing. */
const VENDOR_VOUCHED =
  /\b(?:verified|vetted|approved|certified|audited|scanned|whitelisted|cleared)\s{1,4}(?:as\s{1,4}safe\s{1,4})?by\s{1,4}(?:socket(?:\.dev)?|snyk|phylum|sonatype|jfrog|checkmarx|github\s{1,4}security|npm\s{1,4}security)\b[^\n.!?]{0,120}\b(?:safe|trusted)\s{1,4}to\s{1,4}(?:install|use|add|run)\b|\b(?:safe|trusted)\s{1,4}to\s{1,4}(?:install|use|add|run)\b[^\n.!?]{0,120}\b(?:verified|vetted|approved|certified|audited|scanned|whitelisted|cleared)\s{1,4}by\s{1,4}(?:socket(?:\.dev)?|snyk|phylum|sonatype|jfrog|checkmarx|github\s{1,4}security|npm\s{1,4}security)\b/i;

/**
 * Words addressing an agent: a vocative at a line or sentence start ("AI assistants:", "Dear
 * Claude,", "Note to AI agents"), or "if you are an AI / language model".
 */
const ADDRESSEE =
  /(?:^|[\n.!?>*#|(]\s{0,4})(?:(?:AI|LLM)\s{1,4}(?:coding\s{1,4})?|coding\s{1,4}|autonomous\s{1,4})(?:assistants?|agents?|models?|reviewers?|scanners?)\s{0,2}[:,;!\u2014-]|\b(?:dear|attention|hey|hello|hi|note|important|notice|message|instructions?|reminder|warning)\b\s{0,2}[:,!-]?\s{1,4}(?:(?:to|for)\s{1,4})?(?:any\s{1,4}|all\s{1,4}|the\s{1,4})?(?:AI|LLM|coding|autonomous)\s{1,4}(?:coding\s{1,4})?(?:assistants?|agents?|models?|reviewers?|scanners?)\b|\b(?:dear|attention|hey|hello|hi)\s{1,4}(?:AI|LLM|assistant|agent|Claude|ChatGPT|GPT|Copilot|Cursor|Gemini|Codex)\b|\bif\s{1,4}you\s{1,4}are\s{1,4}(?:an?\s{1,4})?(?:AI|LLM|language\s{1,4}model|coding\s{1,4}(?:assistant|agent)|Claude|ChatGPT|Copilot)\b|\b(?:to|for)\s{1,4}(?:any|every|the)\s{1,4}(?:AI|LLM)\s{1,4}(?:coding\s{1,4})?(?:assistant|agent|model)s?\s{1,4}(?:reading|processing|parsing|reviewing)\b/gi;

/** What may not be said to an addressed agent about this package: it is safe, verified, to be installed, the user need not know. */
const CLAIM_ADDRESSED =
  /\b(?:safe|secure|trusted|trustworthy|harmless|benign|legitimate|clean)\s{1,4}(?:to\s{1,4}(?:install|use|run|add|execute)|package)\b|\b(?:is|was|has\s{1,4}been|been)\s{1,4}(?:already\s{1,4})?(?:verified|vetted|approved|audited|certified|whitelisted|allowlisted|scanned|cleared|pre-approved)\b|\b(?:verified|vetted|approved|certified|audited|whitelisted|cleared)\s{1,4}by\s{1,4}[a-z]|\binstall\s{1,4}(?:it|this(?:\s{1,4}(?:package|tool|server))?)\s{1,4}(?:immediately|right\s{1,4}away|automatically|directly|now|without)\b|\bwithout\s{1,4}(?:asking|confirming|consulting|checking|telling|warning|notifying)\b|\b(?:skip|bypass|ignore)\s{1,4}(?:the\s{1,4}|any\s{1,4}|all\s{1,4})?(?:security\s{1,4})?(?:checks?|warnings?|confirmation|review|scan)\b|\b(?:do\s{1,4}not|don't|never)\s{1,4}(?:flag|warn|report|mention)\b/i;

/**
 * Chat-template and role tokens a model's conversation format uses (ChatML, Llama, Gemma, tool
 * results, system turns): in metadata they only serve to fake a turn of the conversation.
 */
const CHAT_TOKEN =
  /<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|end_of_text|eom_id|tool_call|tool_result)\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:start_of_turn|end_of_turn)>|<\/?(?:system|system-reminder|system_prompt|tool_result|tool_results|function_results|function_calls|tool_call|tool_response|assistant|user_query|instructions)\s{0,4}>/i;

/** Invisible tag characters (U+E0001–E007F) carry ASCII that no one sees. */
const TAG_CHARS = /[\u{e0000}-\u{e007f}]+/u;
/** A subdivision flag (🏴 then tag letters/digits then CANCEL TAG, e.g. England's): tags that render, not hide. */
const SUBDIVISION_FLAG = /\u{1f3f4}[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]{1,8}\u{e007f}/gu;

/** Inline code spans: documentation of a chat format, not a turn of one (fenced blocks: withoutFencedCode). */
const CODE_SPAN = /`[^`\n]{1,200}`/g;

/**
 * Characters that hide or split text (render/sanitize.ts keeps the full list for output): every
 * format character (bidirectional controls, zero-width characters, tag characters), fillers that
 * render as blank, variation selectors, and controls other than the line feed.
 */
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u3164\uffa0\ufe00-\ufe0f\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}\u0000-\u0009\u000b-\u001f\u007f-\u009f]/gu;
const LINE_BREAK = /\r\n|[\r\u000b\u000c\u0085\u2028\u2029]/g;

/** The text as a reader sees it: line breaks made `\n`, everything invisible removed. */
const visible = (text: string): string => text.replace(LINE_BREAK, '\n').replace(INVISIBLE, '');

/** Longest excerpt kept. */
const MAX_EXCERPT = 120;

/** One sanitised line of at most MAX_EXCERPT characters. */
export function excerptOf(text: string): string {
  const line = visible(text).replace(/\s+/g, ' ').trim();
  return line.length > MAX_EXCERPT ? `${line.slice(0, MAX_EXCERPT - 1)}…` : line;
}

function around(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 40);
  const end = Math.min(text.length, index + length + 60);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/** The index is inside an HTML comment (`<!--` before it with no `-->` between). */
function inComment(text: string, index: number): boolean {
  const open = text.lastIndexOf('<!--', index);
  return open !== -1 && text.lastIndexOf('-->', index) < open;
}

/** Blank out code (same length, so indexes still point into the text). */
const blank = (s: string) => s.replace(/[^\n]/g, ' ');

/**
 * The text with its fenced code blocks blanked, read line by line as the README checks read them
 * (util/readme-lines.ts: a fence closes on the same character at least as long; an unclosed one
 * runs to the end). One pass: a pattern searching for each fence's closing line would rescan the
 * rest of the text for every fence that never closes.
 */
function withoutFencedCode(text: string): string {
  const reader = new ReadmeLineReader(() => undefined);
  return text
    .split('\n')
    .map((line) => {
      const inCode = reader.inFence;
      reader.line(line);
      return inCode || reader.inFence ? blank(line) : line;
    })
    .join('\n');
}

/**
 * The first finding in one metadata text, or null. `markdown`: the text is a README, whose code
 * blocks and spans may show chat-template tokens as documentation; `words`: keywords or topics,
 * one a line, whose hyphens and underscores separate words.
 */
export function agentDirectedFinding(raw: string, options: { markdown?: boolean; words?: boolean } = {}): AgentTextFinding | null {
  const withoutFlags = raw.replace(SUBDIVISION_FLAG, '');
  const tags = TAG_CHARS.exec(withoutFlags);
  if (tags !== null) {
    const decoded = [...tags[0]].map((c) => String.fromCodePoint(c.codePointAt(0)! - 0xe0000)).join('');
    return { kind: 'hidden-tags', excerpt: excerptOf(decoded) || `${[...tags[0]].length} invisible tag characters`, inComment: false };
  }
  // Other invisible characters (zero-width joiners, bidi controls) must not split a phrase.
  const clean = visible(withoutFlags);
  // Keywords and topics are words joined by hyphens or underscores (`ignore-previous-instructions`).
  const text = options.words === true ? clean.replace(/[-_]/g, ' ') : clean;
  const finding = (kind: AgentTextKind, index: number, length: number): AgentTextFinding => ({
    kind,
    excerpt: excerptOf(around(text, index, length)),
    inComment: inComment(text, index),
  });
  const override = OVERRIDE.exec(text) ?? REVIEWER_DIRECTED.exec(text);
  if (override !== null) return finding('override', override.index, override[0].length);
  const claim = CLAIM_UNADDRESSED.exec(text) ?? VENDOR_VOUCHED.exec(text);
  if (claim !== null) return finding('safety-claim', claim.index, claim[0].length);
  for (const address of text.matchAll(ADDRESSEE)) {
    const window = text.slice(address.index, address.index + 400);
    const said = CLAIM_ADDRESSED.exec(window);
    if (said !== null) return finding('safety-claim', address.index, said.index + said[0].length);
  }
  // Tokens keep their underscores (`<|im_start|>`), in keywords too.
  const prose = options.markdown === true ? withoutFencedCode(clean).replace(CODE_SPAN, blank) : clean;
  const token = CHAT_TOKEN.exec(prose);
  if (token !== null) return finding('chat-token', token.index, token[0].length);
  return null;
}
