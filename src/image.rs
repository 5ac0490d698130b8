//! Images for the MCP server (SPEC §12): PNG, JPEG, GIF and WebP, recognised by their
//! first bytes whatever their name, sent whole when they are at most 5 MiB.

use std::fs::File;
use std::os::unix::fs::FileExt;

use crate::error::{Error, ErrorCode};

/// The largest image sent.
pub const MAX_IMAGE_BYTES: u64 = 5 * 1024 * 1024;

/// An image file read whole.
#[derive(Debug)]
pub struct Image {
    /// `PNG`, `JPEG`, `GIF` or `WebP`.
    pub kind: &'static str,
    pub mime_type: &'static str,
    pub width: u64,
    pub height: u64,
    pub bytes: Vec<u8>,
}

/// The image `file` holds, or None when its first bytes are not one of the four kinds.
pub fn read(file: &File, size: u64, display: &str) -> Result<Option<Image>, Error> {
    let mut head = [0u8; 16];
    let n = read_full(file, &mut head, 0).map_err(|e| Error::read_failed(display, &e))?;
    let Some((kind, mime_type)) = kind_of(&head[..n]) else {
        return Ok(None);
    };
    if size > MAX_IMAGE_BYTES {
        return Err(Error::new(
            ErrorCode::SizeLimitExceeded,
            format!(
                "Image '{display}' is {size} bytes; images larger than 5 MiB ({MAX_IMAGE_BYTES} bytes) are not sent."
            ),
        ));
    }
    let mut bytes = vec![0u8; size as usize];
    let n = read_full(file, &mut bytes, 0).map_err(|e| Error::read_failed(display, &e))?;
    bytes.truncate(n);
    let dimensions = imagesize::blob_size(&bytes).map_err(|_| {
        Error::new(
            ErrorCode::BinaryFile,
            format!("File '{display}' starts like a {kind} image but its size cannot be read."),
        )
    })?;
    Ok(Some(Image {
        kind,
        mime_type,
        width: dimensions.width as u64,
        height: dimensions.height as u64,
        bytes,
    }))
}

/// The four kinds an MCP host can show, from the header (imagesize knows many more).
pub fn kind_of(head: &[u8]) -> Option<(&'static str, &'static str)> {
    match imagesize::image_type(head).ok()? {
        imagesize::ImageType::Png => Some(("PNG", "image/png")),
        imagesize::ImageType::Jpeg => Some(("JPEG", "image/jpeg")),
        imagesize::ImageType::Gif => Some(("GIF", "image/gif")),
        imagesize::ImageType::Webp => Some(("WebP", "image/webp")),
        _ => None,
    }
}

/// An image file's width and height, read from its header wherever it lies (a JPEG's
/// can follow a large EXIF block), without reading the rest.
pub fn dimensions(file: &File) -> Option<(u64, u64)> {
    use std::io::{Seek, SeekFrom};
    let mut reader = std::io::BufReader::new(file);
    reader.seek(SeekFrom::Start(0)).ok()?;
    let size = imagesize::reader_size(reader).ok()?;
    Some((size.width as u64, size.height as u64))
}

fn read_full(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read_at(&mut buf[filled..], offset + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(head: &[u8]) -> Option<&'static str> {
        let mut padded = head.to_vec();
        padded.resize(16, 0);
        kind_of(&padded).map(|(kind, _)| kind)
    }

    #[test]
    fn only_the_four_kinds_are_images() {
        assert_eq!(kind(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), Some("PNG"));
        assert_eq!(kind(b"\xFF\xD8\xFF\xE0\0\x10JFIF\0"), Some("JPEG"));
        assert_eq!(kind(b"GIF89a\x01\0\x01\0"), Some("GIF"));
        assert_eq!(kind(b"RIFF\0\0\0\0WEBPVP8 "), Some("WebP"));
        assert_eq!(kind(b"BM\0\0\0\0\0\0\0\0"), None);
        assert_eq!(kind(b"plain text, not an image"), None);
    }
}
