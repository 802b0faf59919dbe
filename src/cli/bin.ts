/** The command-line entry (dist/cli.js, run by bin/nerq.js): runs `main` with the process's arguments. */
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
