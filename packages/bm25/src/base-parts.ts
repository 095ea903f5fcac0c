import { RagError, type FileRanges } from '@rag/core';
import type { Bm25IndexData } from './build.js';
import { FIELD_NAMES } from './options.js';
import { readSectionsInParts, viewAs } from './paged.js';
import { assembleIndexData, corrupt, sectionEntry, type SectionSource, type SectionType } from './persist.js';
import type { PostingSource } from './postings.js';
import { TERM_ID_MASK } from './term-interner.js';

const EMPTY: Record<SectionType, Uint8Array | Uint16Array | Uint32Array> = { u8: new Uint8Array(0), u16: new Uint16Array(0), u32: new Uint32Array(0) };

/** The sections an update that writes an overlay reads of its base: everything but the posting lists and term sequences. */
function wantedSections(): [string, SectionType][] {
  const sections: [string, SectionType][] = [
    ['vocabulary', 'u8'],
    ['termOffsets', 'u32'],
    ['vocabulary.samples', 'u8'],
    ['vocabulary.sampleOffsets', 'u32'],
    ['docFrequencies', 'u32'],
  ];
  for (const name of FIELD_NAMES) sections.push([`${name}.offsets`, 'u32'], [`${name}.lengths`, 'u32']);
  sections.push(['sequences.offsets', 'u32'], ['features.evidence', 'u8'], ['features.types', 'u8'], ['features.descriptions', 'u8'], ['features.nameOffsets', 'u32'], ['features.names', 'u32']);
  sections.push(['anchors.hashes', 'u32'], ['anchors.mentionOffsets', 'u32'], ['anchors.mentions', 'u32'], ['anchors.defined', 'u32']);
  return sections;
}

/** A base index as an update reads it: all but its lists and sequences, and the sequences of chunks asked for. */
export interface BaseParts {
  /** The index with empty posting lists and term sequences (`sequences.terms`). */
  data: Bm25IndexData;
  payloadChecksum: number;
  /** Reads the term sequences of `docs`; the source then gives them (and no lists). */
  fetchSequences(docs: readonly number[]): Promise<PostingSource>;
}

/**
 * Reads the parts of a `bm25.bin` an overlay is computed from (about a fifth of it on vLLM:
 * the dictionary, statistics, list bounds, lengths, features, anchor hashes and mentions), through a
 * store that checks every page it reads (`FileRanges`). Structure is checked as an index read
 * in pages is (`assembleIndexData`); each fetched sequence as it arrives.
 */
export async function readBaseParts(ranges: FileRanges, label: string): Promise<BaseParts> {
  const size = ranges.size;
  const { header, sections: held } = await readSectionsInParts(ranges, label, wantedSections());
  const source = {
    read: (name: string, type: SectionType) => held.get(name) ?? (sectionEntry(header, name, type, size, label), EMPTY[type]),
    length: (name: string, type: SectionType) => sectionEntry(header, name, type, size, label).length,
    checkedOnUse: true,
  } as SectionSource;
  const data = assembleIndexData(header, source, label);
  const sequencesAt = sectionEntry(header, 'sequences.terms', 'u32', size, label).offset;
  const termCount = data.dictionary.size;
  return {
    data,
    payloadChecksum: header.payloadChecksum,
    async fetchSequences(docs) {
      const { offsets } = data.sequences;
      const read = await ranges.read(docs.map((doc) => ({ offset: sequencesAt + offsets[doc]! * 4, length: (offsets[doc + 1]! - offsets[doc]!) * 4 })));
      const fetched = new Map<number, Uint32Array>();
      docs.forEach((doc, i) => {
        const sequence = viewAs(read[i]!, 'u32') as Uint32Array;
        let length = 0;
        for (const field of data.fields) length += field.lengths[doc]!;
        let consistent = sequence.length === length;
        for (let e = 0; consistent && e < sequence.length; e++) consistent = (sequence[e]! & TERM_ID_MASK) < termCount;
        if (!consistent) throw corrupt(label, `the term sequence of chunk ${doc} is inconsistent`);
        fetched.set(doc, sequence);
      });
      return {
        postings() {
          throw new RagError('INVALID_ARGUMENT', `The posting lists of ${label} were not read: an update reads only what its overlay needs.`);
        },
        sequence(doc) {
          const sequence = fetched.get(doc);
          if (!sequence) throw new RagError('INVALID_ARGUMENT', `The term sequence of chunk ${doc} of ${label} was not fetched.`);
          return sequence;
        },
      };
    },
  };
}
