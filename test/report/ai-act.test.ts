/** The EU AI Act rules (report/ai-act.ts): a table of descriptions with the expected classes, false positives included. */
import { describe, expect, it } from 'vitest';
import { AI_ACT_NOTE, classifyAiAct } from '../../src/report/ai-act.js';

const of = (description: string, topics: string[] = [], readmeOpening = '') => classifyAiAct({ description, readmeOpening, topics });

describe('classifyAiAct', () => {
  it.each([
    // Prohibited practices (Article 5)
    ['A social scoring engine for citizens', 'prohibited', 'social-scoring', ['social scoring']],
    ['Predictive-policing MCP server', 'prohibited', 'predictive-policing', ['predictive policing']],
    // Annex III high-risk domains
    ['MCP server for exam proctoring with webcam analysis', 'high-risk', 'education', ['exam proctoring', 'proctoring']],
    ['AI agent that ranks candidates for hiring', 'high-risk', 'employment', ['hiring']],
    ['Resume_screening agent', 'high-risk', 'employment', ['resume screening']],
    ['Agent monitoring the power grid and gas supply', 'high-risk', 'critical-infrastructure', ['power grid', 'gas supply']],
    ['Facial recognition tool for MCP', 'high-risk', 'biometrics', ['facial recognition']],
    ['LLM agent for credit scoring', 'high-risk', 'essential-services', ['credit scoring']],
    // Article 50 transparency
    ['A chatbot for customer support', 'transparency', 'chatbot', ['chatbot']],
    ['Text-to-image generation server', 'transparency', 'synthetic-content', ['image generation', 'text to image']],
    ['Deepfake detector and voice cloning toolkit', 'transparency', 'deepfake', ['deepfake', 'voice cloning']],
    // General-purpose models
    ['Open weights of a foundation model, served over MCP', 'general-purpose', 'general-purpose', ['foundation model', 'open weights']],
    ['A general-purpose AI model for any task', 'general-purpose', 'general-purpose', ['general purpose ai model']],
    // False positives: substrings and near words never fire
    ['An example MCP server with sample data', 'minimal', null, []],
    ['Examples of Vegas-style gaslight themes', 'minimal', null, []],
    ['Fetches exam-ple pages', 'minimal', null, []],
    ['Reads the gasoline price API', 'minimal', null, []],
    ['Filesystem access for agents', 'minimal', null, []],
    ['Shows the hiring_date column', 'minimal', null, []],
    ['Scores social media posts', 'minimal', null, []],
    ['Rechatbotting is not a word', 'minimal', null, []],
    // Real text (fixtures/PROVENANCE.md, "The AI Act rules on real text"): a server that LLMs use is not a model.
    ['The MCP Code Executor is an MCP server that allows LLMs to execute Python code within a specified Conda environment.', 'minimal', null, []],
    ['Official Firecrawl MCP Server - Adds powerful web scraping to Cursor, Claude and any other LLM clients.', 'minimal', null, []],
    ['Enables Large Language Models (LLMs) to safely query and analyze data through a constrained interface.', 'minimal', null, []],
    ['MCP to connect your LLM with Spotify.', 'minimal', null, []],
    ["Model Context Protocol server for DeepSeek's advanced language models", 'minimal', null, []],
    ['A Model Context Protocol (MCP) server enabling AI assistants to interact with Azure DevOps services via Python SDK.', 'minimal', null, []],
    // Real text read as minimal before: emotion recognition named otherwise, an assistant that talks to its user.
    ['Human: AI-powered 3D Face Detection & Rotation Tracking, Face Description & Recognition, Iris Analysis, Age & Gender & Emotion Prediction, Gesture Recognition', 'high-risk', 'biometrics', ['emotion prediction']],
    ["The world's best AI personal assistant for email. Open source app to help you reach inbox zero fast.", 'transparency', 'chatbot', ['personal assistant']],
  ] as const)('%s → %s', (description, category, rule, words) => {
    expect(of(description)).toEqual({ category, rule, basis: rule === null ? null : expect.any(String), words, note: AI_ACT_NOTE });
  });

  it('reads topics and the README opening as whole words too; the riskiest rule wins', () => {
    expect(of('An MCP server', ['face-recognition'])).toMatchObject({ category: 'high-risk', rule: 'biometrics', words: ['face recognition'] });
    expect(of('An MCP server', ['gas'])).toMatchObject({ category: 'minimal' });
    // @vladmandic/face-api's real keywords: emotion detection is emotion recognition; face detection alone is not.
    expect(of('FaceAPI for Browser and NodeJS', ['face-api', 'face-detection', 'age-gender', 'emotion-detection'])).toMatchObject({ category: 'high-risk', rule: 'biometrics', words: ['emotion detection'] });
    expect(of('Finds faces in photos', ['face-detection'])).toMatchObject({ category: 'minimal' });
    expect(of('A chatbot', [], '# Bot\n\nScreens CV screening results for recruitment teams')).toMatchObject({ category: 'high-risk', rule: 'employment' });
  });

  it('reports the rule\'s own words, never the package\'s text', () => {
    const result = of('\u001b[31mCHATBOT\u001b[0m for <script>');
    expect(result.words).toEqual(['chatbot']);
  });
});

describe('the report', () => {
  it('an MCP server carries aiAct, never touching the score; a library carries none', async () => {
    const { buildReport } = await import('../../src/report/build.js');
    const { CHECKS } = await import('../../src/checks/index.js');
    const { DEFAULT_GATE } = await import('../../src/scoring/gate.js');
    const { evidence, registryFacts, tarballFacts } = await import('../support/evidence-builder.js');
    const options = { checks: CHECKS, gate: DEFAULT_GATE, category: null };
    const mcp = evidence({ registry: registryFacts({ keywords: ['mcp'], description: 'An MCP server for exam proctoring' }), tarball: tarballFacts({ readme: { path: 'README.md', size: 30, text: '# Proctor\n\nWatches students.\n', truncated: false } }) });
    const report = buildReport(mcp, options);
    expect(report.category?.id).toBe('mcp-server');
    expect(report.aiAct).toMatchObject({ category: 'high-risk', rule: 'education', words: ['exam proctoring', 'proctoring'] });
    // The section is informational: the same evidence without it scores the same.
    const library = buildReport(mcp, { ...options, category: 'library' });
    expect(library.aiAct).toBeUndefined();
    const same = buildReport(evidence({ registry: registryFacts({ keywords: ['mcp'], description: 'An MCP server' }), tarball: tarballFacts({ readme: { path: 'README.md', size: 30, text: '# Proctor\n\nWatches students.\n', truncated: false } }) }), options);
    expect(same.aiAct?.category).toBe('minimal');
    expect(same.score).toBe(report.score);
  });
});
