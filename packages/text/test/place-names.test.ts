import { describe, expect, it } from 'vitest';
import { namesSpelledInWords } from '../src/index.js';

describe('namesSpelledInWords', () => {
  it.each([
    // The question asks for the thing itself: its words joined as a class and as a function.
    ['Where is the sandboxed environment implemented?', ['SandboxedEnvironment', 'sandboxed_environment']],
    ['Which class implements the sandboxed environment?', ['SandboxedEnvironment', 'sandboxed_environment']],
    ['In which module is safe join defined?', ['SafeJoin', 'safe_join']],
    // A place word ("file") may be part of the name.
    ['Where is the file system loader?', ['FileSystemLoader', 'file_system_loader']],
  ])('%s → %j among them', (question, names) => {
    expect(namesSpelledInWords(question)).toEqual(expect.arrayContaining(names));
  });

  it('joins no run across a function word', () => {
    expect(namesSpelledInWords('Where is the sandboxed environment implemented?')).not.toContain('TheSandboxed');
  });

  it.each([
    // An action on the thing ("parsed", "intercept") is what is asked: the joined name
    // would only be context.
    ['Where is the HTTP response status line parsed?', 'HTTPResponse'],
    ['How does the sandboxed environment intercept operators?', 'SandboxedEnvironment'],
  ])('%s → not %s', (question, name) => {
    expect(namesSpelledInWords(question)).not.toContain(name);
  });

  it('joins nothing for a question that writes its name as one word', () => {
    expect(namesSpelledInWords('Where is SandboxedEnvironment?')).toEqual([]);
    expect(namesSpelledInWords('Where is paginate?')).toEqual([]);
  });
});
