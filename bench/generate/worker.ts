/** A generator worker: builds the bodies of its ranges of packages and sends them back. */
import { parentPort, workerData } from 'node:worker_threads';
import { buildModel } from './model.js';
import { buildSlice } from './world.js';

interface Job {
  seed: number;
  count: number;
  now: string;
  registry: string;
  bigIndexes?: number[];
  binaryIndexes?: number[];
  ranges: Array<[number, number]>;
}

const job = workerData as Job;
const model = buildModel({ seed: job.seed, count: job.count, now: new Date(job.now), ...(job.bigIndexes === undefined ? {} : { bigIndexes: job.bigIndexes }), ...(job.binaryIndexes === undefined ? {} : { binaryIndexes: job.binaryIndexes }) });
parentPort?.postMessage(job.ranges.map(([from, to]) => buildSlice(model, job.registry, from, to)));
