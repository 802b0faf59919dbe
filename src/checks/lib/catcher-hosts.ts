/**
 * Hosts that exist to catch requests: out-of-band testing services, request bins, tunnels, and
 * chat webhooks a stealer posts to (docs/checks.md, `install-scripts` and `import-time-code`).
 * The JavaScript install-code reader flags talking to one; Python's import-code reader takes them
 * as the destination of captured data, and a request to one of the services (not a chat
 * webhook: chat bots are ordinary library code) as a probe.
 */
export const REQUEST_CATCHER =
  /\b(?:oastify\.com|burpcollaborator\.net|interact\.sh|interactsh\.com|oast\.(?:fun|pro|live|site|me|online)|pipedream\.net|requestbin\.(?:net|com)|webhook\.site|ngrok(?:-free)?\.(?:io|app|dev)|canarytokens\.(?:com|org)|dnslog\.cn|ceye\.io|beeceptor\.com|requestcatcher\.com|hookbin\.com|trycloudflare\.com|serveo\.net|loca\.lt|localtunnel\.me|bind9\.(?:io|net)|dnsbin\.zhack\.ca|requestrepo\.com|ptrace\.io)\b/i;
/**
 * Chat webhooks and bot APIs a stealer posts to: by URL, or through a chat library's client made
 * with the webhook's or bot's credentials written in the code (discord.js `new WebhookClient('<id>',
 * '<token>')` or `({ id: '<id>', … })`, `new TelegramBot('<id>:<token>')`, `new Telegraf(…)`).
 */
const CHAT_WEBHOOK =
  /discord(?:app)?\.com\/api\/webhooks\/|api\.telegram\.org\/bot|\bWebhookClient\s*\(\s*(?:\{\s*id\s*:\s*)?['"`]\d{17,20}['"`]|\bnew\s+(?:TelegramBot|Telegraf)\s*\(\s*['"`]\d{6,12}:[\w-]{30,}['"`]/i;
/** Either. */
export const CATCHER_HOST = new RegExp(`${REQUEST_CATCHER.source}|${CHAT_WEBHOOK.source}`, 'i');
