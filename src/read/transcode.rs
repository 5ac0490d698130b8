//! Turns input in any other encoding into a UTF-8 stream for the line reader.
//!
//! A malformed sequence becomes the byte 0xFF, which is never valid UTF-8: the line
//! cutter then shows it as U+FFFD and marks the read as fallen back only when that
//! place is shown, exactly as for invalid UTF-8 input.

use std::io::{self, Read};

use encoding_rs::{Decoder, DecoderResult, Encoding};

use super::buffer::AlignedBuf;

const CHUNK: usize = 64 * 1024;

pub struct Transcoder<R> {
    input: R,
    decoder: Decoder,
    raw: AlignedBuf,
    raw_pos: usize,
    raw_end: usize,
    input_done: bool,
    out: Box<[u8]>,
    out_pos: usize,
    out_end: usize,
    finished: bool,
}

impl<R: Read> Transcoder<R> {
    /// `input` starts after any byte order mark.
    pub fn new(input: R, encoding: &'static Encoding) -> Transcoder<R> {
        Transcoder {
            input,
            decoder: encoding.new_decoder_without_bom_handling(),
            raw: AlignedBuf::new(CHUNK),
            raw_pos: 0,
            raw_end: 0,
            input_done: false,
            // Room for the worst-case expansion of a full raw chunk, plus a marker.
            out: vec![0; CHUNK * 3 + 16].into_boxed_slice(),
            out_pos: 0,
            out_end: 0,
            finished: false,
        }
    }

    fn decode_more(&mut self) -> io::Result<()> {
        self.out_pos = 0;
        self.out_end = 0;
        while self.out_end == 0 && !self.finished {
            if self.raw_pos == self.raw_end && !self.input_done {
                self.raw_pos = 0;
                self.raw_end = loop {
                    match self.input.read(&mut self.raw) {
                        Ok(n) => break n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(e),
                    }
                };
                self.input_done = self.raw_end == 0;
            }
            let room = self.out.len() - 1; // keep one byte for a malformed-input marker
            let (result, read, written) = self.decoder.decode_to_utf8_without_replacement(
                &self.raw[self.raw_pos..self.raw_end],
                &mut self.out[self.out_end..room],
                self.input_done,
            );
            self.raw_pos += read;
            self.out_end += written;
            match result {
                DecoderResult::Malformed(..) => {
                    self.out[self.out_end] = 0xFF;
                    self.out_end += 1;
                }
                DecoderResult::InputEmpty => self.finished = self.input_done,
                DecoderResult::OutputFull => {}
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for Transcoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.out_pos == self.out_end {
            self.decode_more()?;
        }
        let n = (self.out_end - self.out_pos).min(buf.len());
        buf[..n].copy_from_slice(&self.out[self.out_pos..self.out_pos + n]);
        self.out_pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcode(bytes: &[u8], encoding: &'static Encoding) -> Vec<u8> {
        let mut out = Vec::new();
        Transcoder::new(bytes, encoding)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn decodes_legacy_and_utf16_text() {
        let (gbk, _, _) = encoding_rs::GBK.encode("中文\n");
        assert_eq!(transcode(&gbk, encoding_rs::GBK), "中文\n".as_bytes());
        let le: Vec<u8> = "hi\r\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(transcode(&le, encoding_rs::UTF_16LE), b"hi\r\n");
    }

    #[test]
    fn marks_each_malformed_sequence_with_one_invalid_byte() {
        // A lone trail surrogate, then text, then a truncated unit at the end.
        let bytes = [0x00, 0xDC, b'a', 0x00, b'b'];
        assert_eq!(transcode(&bytes, encoding_rs::UTF_16LE), b"\xFFa\xFF");
    }
}
