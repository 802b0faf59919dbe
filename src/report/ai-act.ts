/**
 * Regulatory context (informational, docs/scoring.md §13): the EU AI Act category a transparent
 * rule set suggests for an AI tool or MCP server, from what the package says about itself — its
 * description, its README's opening (title and first paragraph) and its keywords / topics. The
 * first rule that matches wins, riskiest first: a prohibited practice (Article 5), an Annex III
 * high-risk domain, an Article 50 transparency duty, a general-purpose model, else minimal.
 *
 * Whole words and phrases only: "exam" inside "example" or "gas" inside "vegas" never fires.
 * An area's bare trade words ("recruitment", "proctoring") fire only beside a phrase that names a
 * decision of the area or in a text that says the package is AI or machine learning.
 * Never part of the score, the verdict or the gate; a heuristic, not legal advice. The words
 * reported are the rule's own, never text from the package.
 */
import type { Evidence } from '../evidence/schema.js';
import { readmeOpening } from '../checks/lib/readme-opening.js';
import type { AiAct } from './schema.js';
import { escapeRegExp } from '../util/escape-regexp.js';
import { faceListWords } from './face-lists.js';

export const AI_ACT_CATEGORIES = ['prohibited', 'high-risk', 'transparency', 'general-purpose', 'minimal'] as const;
export type AiActCategory = (typeof AI_ACT_CATEGORIES)[number];

interface AiActRule {
  id: string;
  category: Exclude<AiActCategory, 'minimal'>;
  /** Where the rule comes from in the Act. */
  basis: string;
  /** Whole words or phrases (a space matches spaces, hyphens or underscores). */
  phrases: readonly string[];
  /**
   * Phrases that say the text is about something the Annex does not name, whatever else it says:
   * a traffic simulator (SUMO's Traffic Control Interface steers simulated vehicles), a résumé
   * builder for job seekers. When one is said, the rule does not fire and the next one is tried.
   */
  unless?: readonly string[];
  /**
   * Those of `phrases` that name the area's trade, not a decision taken in it (recruitment,
   * hiring, proctoring): a website fed job postings by a recruitment service, or a mock
   * proctoring backend for development, says them too. They count beside another of `phrases`,
   * or in a text that says the package is an AI or machine-learning system (AI_SIGNALS).
   */
  trade?: readonly string[];
  /** Those of `phrases` a text says other than as whole phrases (a list of verbs or nouns: report/face-lists.ts). */
  listed?: (text: string) => readonly string[];
}

/**
 * Words that say a system is AI or machine learning (Article 3(1): a machine-based system that
 * infers from its input how to produce predictions, content, recommendations or decisions).
 */
const AI_SIGNALS: readonly string[] = [
  'ai', 'artificial intelligence', 'machine learning', 'ml', 'deep learning', 'neural', 'neural network', 'neural networks', 'nlp',
  'natural language processing', 'llm', 'llms', 'large language model', 'large language models', 'gpt', 'computer vision', 'classifier',
  'predictive',
];

/** Ordered: the first match wins. */
export const AI_ACT_RULES: readonly AiActRule[] = [
  { id: 'social-scoring', category: 'prohibited', basis: 'Article 5(1)(c)', phrases: ['social scoring', 'social credit score'] },
  { id: 'manipulation', category: 'prohibited', basis: 'Article 5(1)(a)', phrases: ['subliminal', 'subliminal manipulation'] },
  { id: 'predictive-policing', category: 'prohibited', basis: 'Article 5(1)(d)', phrases: ['predictive policing', 'crime prediction'] },
  { id: 'face-scraping', category: 'prohibited', basis: 'Article 5(1)(e)', phrases: ['facial image scraping', 'face scraping'] },
  { id: 'emotion-workplace', category: 'prohibited', basis: 'Article 5(1)(f)', phrases: ['employee emotion recognition', 'student emotion recognition'] },
  // Face recognition is also said in a list: "detect, recognize, and analyze human faces".
  {
    id: 'biometrics',
    category: 'high-risk',
    basis: 'Annex III(1)',
    phrases: ['biometric identification', 'face recognition', 'facial recognition', 'face identification', 'emotion recognition', 'emotion detection', 'emotion prediction', 'biometric categorisation', 'biometric categorization'],
    listed: faceListWords,
  },
  // Safety components of critical infrastructure, road traffic management and the supply of
  // water, gas, heating and electricity; a simulator of them controls nothing real, and Apache
  // Traffic Control (its Traffic Ops) is a content delivery network's, not a road's.
  {
    id: 'critical-infrastructure',
    category: 'high-risk',
    basis: 'Annex III(2)',
    phrases: ['critical infrastructure', 'power grid', 'gas supply', 'water supply', 'electricity grid', 'electricity supply', 'heating supply', 'district heating', 'traffic control', 'traffic signal control', 'traffic light control', 'road traffic management', 'traffic management system'],
    unless: ['simulation', 'simulations', 'simulator', 'simulate', 'simulated', 'sumo', 'network traffic', 'http traffic', 'web traffic', 'apache traffic control', 'traffic ops'],
  },
  // Admission, evaluating learning outcomes, monitoring students during tests; "proctoring" or
  // "admissions" alone names the trade (a mock proctoring backend for development is none of it).
  {
    id: 'education',
    category: 'high-risk',
    basis: 'Annex III(3)',
    phrases: ['exam proctoring', 'proctoring', 'proctor online', 'proctor exams', 'proctored exams', 'online proctor', 'exam grading', 'automated grading', 'essay scoring', 'student assessment', 'admissions'],
    trade: ['proctoring', 'admissions'],
  },
  // Recruitment and selection (analysing and filtering applications, evaluating candidates) and
  // decisions on workers (promotion, termination, task allocation, monitoring and evaluation); a
  // résumé builder or template for job seekers is neither, and "recruitment" or "hiring" alone names
  // the trade (a website plugin that reads job postings from a recruitment service decides nothing).
  {
    id: 'employment',
    category: 'high-risk',
    basis: 'Annex III(4)',
    phrases: [
      'recruitment', 'recruiting', 'hiring', 'cv screening', 'resume screening', 'résumé screening', 'candidate screening', 'applicant tracking',
      'resume parser', 'parse resumes', 'résumé parser', 'cv parser', 'cv parsing', 'resume matching', 'resume matcher', 'rank resumes', 'resume ranking',
      'candidate ranking', 'rank candidates', 'ranks candidates', 'candidate shortlisting', 'shortlist candidates',
      'employee monitoring', 'monitor employees', 'monitor their employees', 'worker monitoring', 'workforce monitoring', 'promotion decisions', 'termination decisions',
    ],
    trade: ['recruitment', 'recruiting', 'hiring', 'applicant tracking'],
    unless: ['resume builder', 'résumé builder', 'cv builder', 'resume template', 'resume templates', 'cv template', 'cv templates', 'resume generator', 'cv generator', 'resume theme', 'resume editor'],
  },
  // Creditworthiness, life and health insurance pricing, public benefits, emergency calls and triage.
  {
    id: 'essential-services',
    category: 'high-risk',
    basis: 'Annex III(5)',
    phrases: ['credit scoring', 'creditworthiness', 'credit scorecard', 'credit risk scorecard', 'credit risk scoring', 'loan approval', 'loan underwriting', 'insurance pricing', 'insurance underwriting', 'benefits eligibility', 'emergency dispatch', 'emergency call triage', 'emergency triage', 'patient triage'],
  },
  { id: 'law-enforcement', category: 'high-risk', basis: 'Annex III(6)', phrases: ['law enforcement', 'polygraph', 'lie detector', 'recidivism', 're offending'] },
  { id: 'migration', category: 'high-risk', basis: 'Annex III(7)', phrases: ['border control', 'border management', 'asylum', 'visa application', 'visa applications', 'residence permit'] },
  { id: 'justice', category: 'high-risk', basis: 'Annex III(8)', phrases: ['judicial decision', 'judicial decisions', 'sentencing', 'election influence', 'voter targeting'] },
  { id: 'deepfake', category: 'transparency', basis: 'Article 50(4)', phrases: ['deepfake', 'deep fake', 'face swap', 'voice cloning'] },
  // "Generative" alone names generative art (procedural sketches) as well as generative AI: it
  // counts beside another phrase or in a text that says the package is AI.
  {
    id: 'synthetic-content',
    category: 'transparency',
    basis: 'Article 50(2)',
    phrases: ['image generation', 'text to image', 'text to speech', 'texttospeech', 'video generation', 'text to video', 'generative ai', 'generative'],
    trade: ['generative'],
    // A screen reader speaks the screen for a reader who cannot see it: assistive, no generated content.
    unless: ['screen reader'],
  },
  { id: 'chatbot', category: 'transparency', basis: 'Article 50(1)', phrases: ['chatbot', 'chatbots', 'chat bot', 'chat bots', 'conversational agent', 'virtual assistant', 'personal assistant'] },
  // A package that is or ships the model: "LLM" alone is how a server names its client ("allows
  // LLMs to query MySQL", "any LLM client"), which makes the server no model (Article 53 binds
  // the model's provider).
  {
    id: 'general-purpose',
    category: 'general-purpose',
    basis: 'Article 51–55',
    phrases: ['foundation model', 'foundation models', 'general purpose ai model', 'general purpose ai models', 'gpai', 'open weights', 'model weights'],
  },
];

export const AI_ACT_NOTE = 'A heuristic over what the package says about itself, not legal advice; never part of the score.';

/** The phrase as a whole-word pattern: letters, digits and `_` may not touch it on either side. */
function phraseRegex(phrase: string): RegExp {
  const body = phrase
    .split(' ')
    .map(escapeRegExp)
    .join('[\\s_-]+');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])`, 'iu');
}

const COMPILED = AI_ACT_RULES.map((rule) => ({
  rule,
  patterns: rule.phrases.map((p) => ({ phrase: p, re: phraseRegex(p), trade: rule.trade?.includes(p) === true })),
  unless: (rule.unless ?? []).map(phraseRegex),
  listed: rule.listed,
}));
const AI_SIGNAL_PATTERNS = AI_SIGNALS.map(phraseRegex);

/** What a package says about itself. */
export interface AiActInput {
  description: string;
  readmeOpening: string;
  topics: readonly string[];
}

/** The suggested category, the rule and the words that fired (the rule's own phrases). */
export function classifyAiAct(input: AiActInput): AiAct {
  // Capped: only the opening and a description are read, never a whole document.
  const text = [input.description, input.readmeOpening, ...input.topics]
    .join('\n')
    .slice(0, 20_000)
    // Terminal escape sequences and control characters are not words: they separate them.
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|[\u0000-\u001f\u007f-\u009f]/g, ' ')
    // Invisible format characters (zero-width, soft hyphen, bidirectional marks) are no letter
    // a reader sees: `fa\u200bcial recognition` reads as the phrase it shows.
    .replace(/\p{Cf}/gu, '');
  let saysAi: boolean | undefined;
  for (const { rule, patterns, unless, listed } of COMPILED) {
    const inList = new Set(listed?.(text) ?? []);
    const found = patterns.filter((p) => p.re.test(text) || inList.has(p.phrase));
    // A trade's word alone counts only in a text that says the package is AI.
    const decides = found.some((p) => !p.trade) || (found.length > 0 && (saysAi ??= AI_SIGNAL_PATTERNS.some((re) => re.test(text))));
    const words = decides ? found.map((p) => p.phrase) : [];
    if (words.length > 0 && !unless.some((re) => re.test(text))) return { category: rule.category, rule: rule.id, basis: rule.basis, words, note: AI_ACT_NOTE };
  }
  return { category: 'minimal', rule: null, basis: null, words: [], note: AI_ACT_NOTE };
}

/** The categories this section is given for: AI tools and MCP servers. */
const AI_CATEGORIES = new Set(['mcp-server', 'ai-agent-tool']);

/**
 * The section for a report whose categories are `categories` (every one that applies, the
 * governing one first: an MCP server that executes code is governed by `code-execution` and is
 * still an MCP server), or null when none is an AI tool or MCP server.
 */
export function aiActOf(evidence: Evidence, categories: readonly string[]): AiAct | null {
  if (!categories.some((c) => AI_CATEGORIES.has(c))) return null;
  const { registry, pypi, github, tarball } = evidence.sources;
  const mcp = evidence.sources.mcp;
  // A repository target or an MCP Registry entry publishes no package: what it says of itself is
  // the entry's description (server.json), else the repository's, and the repository's README,
  // as the GitHub source already read them.
  const repositoryTarget = evidence.target.ecosystem === 'github' || evidence.target.ecosystem === 'mcp';
  const repository = github.status === 'ok' ? github.facts.repository : null;
  const description =
    registry.status === 'ok'
      ? (registry.facts.description ?? '')
      : pypi.status === 'ok'
        ? (pypi.facts.summary ?? '')
        : repositoryTarget
          ? ((mcp?.status === 'ok' ? mcp.facts.description : null) ?? repository?.description ?? '')
          : '';
  const readme =
    tarball.status === 'ok' && tarball.facts.readme !== null
      ? tarball.facts.readme.text
      : registry.status === 'ok' && registry.facts.readme
        ? registry.facts.readme.text
        : repositoryTarget && github.status === 'ok'
          ? (github.facts.files?.readme?.text ?? '')
          : '';
  const opening = readme === '' ? { title: null, paragraph: null } : readmeOpening(readme);
  const topics = [
    ...(registry.status === 'ok' ? registry.facts.keywords : pypi.status === 'ok' ? pypi.facts.keywords : []),
    ...(repository !== null ? repository.topics : []),
  ];
  return classifyAiAct({ description, readmeOpening: [opening.title ?? '', opening.paragraph ?? ''].join('\n'), topics });
}
