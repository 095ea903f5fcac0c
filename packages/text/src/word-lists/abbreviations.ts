/**
 * Words of a question mapped to the abbreviations programmers write for them in
 * identifiers, so a question that describes behaviour in words ("the maximum number of
 * sequences") reaches the code that spells it `max_num_seqs`. Keys and values are terms as
 * the tokenizer emits them (stemmed, sub-words of split identifiers); only abbreviations
 * common across codebases belong here, never names from a particular one.
 */
export const DEFAULT_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  number: ['num'],
  maximum: ['max'],
  minimum: ['min'],
  sequenc: ['seq'],
  length: ['len'],
  configuration: ['config', 'cfg'],
  argument: ['arg'],
  parameter: ['param'],
  attention: ['attn'],
  temperatur: ['temp'],
  probability: ['prob'],
  position: ['pos'],
  previous: ['prev'],
  directory: ['dir'],
  dimension: ['dim'],
  environment: ['env'],
  request: ['req'],
  respons: ['resp'],
  messag: ['msg'],
  buffer: ['buf'],
  context: ['ctx'],
  implementation: ['impl'],
  information: ['info'],
  utility: ['util'],
  allocation: ['alloc'],
  allocat: ['alloc'],
  specification: ['spec'],
  expression: ['expr'],
  temporary: ['tmp'],
  initializ: ['init'],
  quantization: ['quant'],
});
