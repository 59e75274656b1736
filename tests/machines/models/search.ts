import { createMachine } from 'xstate';
import { searchMachine } from '../../../machines/search/search-machine.ts';
import { defineModel } from '../paths/model-entry.ts';
import { searchModelDriver } from '../search-model-driver.ts';

/** Abstract model of a search as the person types: pauses, answers, failures, typing over a question on its way. */
const model = createMachine({
  id: 'searchModel',
  initial: 'idle',
  states: {
    idle: { on: { 'person.types': 'waiting' } },
    waiting: {
      on: { 'typing.pauses': 'searching', 'person.types': 'waiting', 'person.repeats': 'waiting' },
    },
    searching: {
      on: { 'service.answers': 'shown', 'service.fails': 'failed', 'person.types': 'waiting' },
    },
    shown: { on: { 'person.types': 'waiting', 'person.repeats': 'shown', 'person.clears': 'cleared' } },
    failed: { on: { 'person.types': 'waiting', 'person.clears': 'cleared' } },
    cleared: { on: { 'person.types': 'waiting' } },
  },
});

export default defineModel({
  name: 'search',
  title: 'Search as you type ("Give a user access")',
  source: 'machines/search/search-machine.ts',
  about:
    "Matches found as the person types: nothing is asked until typing pauses for 300 ms; typing again aborts the question on its way and its late answer is ignored, so the matches shown are always the latest text's.",
  machine: searchMachine,
  model,
  driver: searchModelDriver,
  events: {
    'person.types': 'The person types a new text of two characters or more (with spaces around it).',
    'person.repeats': 'The field repeats the same text (picking a match fills it in again).',
    'person.clears': 'The person deletes down to one character.',
    'typing.pauses': '300 ms pass without typing (and not one millisecond less).',
    'service.answers': 'The service answers the latest question with its matches.',
    'service.fails': 'The question fails (no signal, or the service is down).',
  },
  states: {
    idle: 'An empty field: no matches, nothing asked.',
    waiting:
      'Waiting for typing to pause: nothing new asked, every earlier question aborted, the last matches still shown.',
    searching: 'One question on its way, for the latest text trimmed; the last matches still shown.',
    shown: "The latest text's matches.",
    failed: "The failure's message; the last matches still shown.",
    cleared: 'No matches and nothing asked: the text is too short.',
  },
});
