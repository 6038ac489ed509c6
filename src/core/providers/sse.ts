// Reads a server-sent-events body (as chat-completion streams use) into its `data:` payloads.

/**
 * Yields the data of each event in a `text/event-stream` body, stopping at `data: [DONE]`. Comment lines and
 * other fields (`event:`, `id:`) are skipped; multi-line data is joined with newlines as the spec says.
 */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) {
          const payload = data.join('\n');
          data = [];
          if (payload.trim() === '[DONE]') return;
          yield payload;
        }
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line[5] === ' ' ? 6 : 5));
      }
    }
  }
  buffer += decoder.decode();
  if (buffer.startsWith('data:')) data.push(buffer.slice(buffer[5] === ' ' ? 6 : 5));
  // Some servers end the stream without the blank line after the last event.
  if (data.length > 0 && data.join('\n').trim() !== '[DONE]') yield data.join('\n');
}
