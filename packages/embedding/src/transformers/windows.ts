/**
 * Start offsets of the windows that cover `tokenCount` tokens with windows of
 * `contentLength` tokens sharing `overlap` tokens. The last window is pulled back to end
 * exactly at the text's end, so no window is a short leftover that would get as much say
 * in the average as a full one. One window (start 0) when the text fits.
 */
export function planWindows(tokenCount: number, contentLength: number, overlap: number): number[] {
  if (contentLength < 1) throw new RangeError('contentLength must be at least 1');
  if (tokenCount <= contentLength) return [0];
  const stride = Math.max(1, contentLength - overlap);
  const starts: number[] = [];
  for (let start = 0; start + contentLength < tokenCount; start += stride) starts.push(start);
  starts.push(tokenCount - contentLength);
  return starts;
}
