import { crc32 } from 'node:zlib';

/**
 * A PNG's description in an iTXt chunk (PNG 3rd edition, 11.3.3.4): the text an image shows, stored with
 * it when it is drawn, so a test can hold the image's alt text to what the image was drawn with.
 */

const KEYWORD = 'Description';
/** The 8-byte signature and the header chunk (length, type, 13 bytes of data, CRC), which always come first. */
const AFTER_HEADER = 8 + 4 + 4 + 13 + 4;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** `png` with an uncompressed iTXt Description in `language` (a BCP 47 tag) right after its header. */
export function withDescription(png: Buffer, language: string, description: string): Buffer {
  const data = Buffer.concat([
    Buffer.from(`${KEYWORD}\0`, 'latin1'),
    Buffer.from([0, 0]), // not compressed
    Buffer.from(`${language}\0\0`, 'latin1'), // language tag; no translated keyword
    Buffer.from(description, 'utf8'),
  ]);
  return Buffer.concat([png.subarray(0, AFTER_HEADER), chunk('iTXt', data), png.subarray(AFTER_HEADER)]);
}

/** The iTXt Descriptions of a PNG, by language tag. */
export function descriptionsOf(png: Buffer): Record<string, string> {
  const found: Record<string, string> = {};
  for (let offset = 8; offset + 8 <= png.length; ) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'iTXt') {
      const keywordEnd = data.indexOf(0);
      const languageEnd = data.indexOf(0, keywordEnd + 3);
      const translatedEnd = data.indexOf(0, languageEnd + 1);
      if (data.toString('latin1', 0, keywordEnd) === KEYWORD && data[keywordEnd + 1] === 0)
        found[data.toString('latin1', keywordEnd + 3, languageEnd)] = data.toString(
          'utf8',
          translatedEnd + 1,
        );
    }
    if (type === 'IEND') break;
    offset += 12 + length;
  }
  return found;
}
