import { describe, expect, it } from 'vitest';
import { gradeOf, roundScore, verdictForScore } from '../../src/scoring/grade.js';

describe('roundScore (one decimal, half up)', () => {
  it.each([
    [60.25, 60.3],
    [60.24999, 60.2],
    [69.95, 70],
    [69.94, 69.9],
    [0.05, 0.1],
    [100, 100],
    [0, 0],
    [1.005 * 10, 10.1],
  ])('%d → %d', (input, expected) => expect(roundScore(input)).toBe(expected));
});

describe('grade bands', () => {
  it.each([
    [100, 'A+'], [90, 'A+'], [89.96, 'A+'], [89.9, 'A'], [80, 'A'], [79.9, 'B'], [70, 'B'],
    [69.96, 'B'], [69.9, 'C'], [60.2, 'C'], [60, 'C'], [59.9, 'D'], [45, 'D'], [44.9, 'E'],
    [35.5, 'E'], [30, 'E'], [29.9, 'F'], [0, 'F'],
  ])('%d is %s', (score, grade) => expect(gradeOf(score)).toBe(grade));
});

describe('verdict bands', () => {
  it.each([
    [70, 'yes'], [69.96, 'yes'], [69.9, 'caution'], [60.2, 'caution'], [50, 'caution'],
    [49.96, 'caution'], [49.9, 'no'], [35.5, 'no'], [0, 'no'],
  ])('%d is %s', (score, verdict) => expect(verdictForScore(score)).toBe(verdict));

  it('reference points of the issue hold together', () => {
    expect([gradeOf(60.2), verdictForScore(60.2)]).toEqual(['C', 'caution']);
    expect([gradeOf(35.5), verdictForScore(35.5)]).toEqual(['E', 'no']);
    expect([gradeOf(70.0), verdictForScore(70.0)]).toEqual(['B', 'yes']);
    expect(gradeOf(90.0)).toBe('A+');
  });
});
