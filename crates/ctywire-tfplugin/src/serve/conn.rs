//! One accepted connection, on the Unix socket or the TCP fallback, plain or TLS, as
//! tonic's server takes it.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use socket2::SockRef;
use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};
use tokio::net::{TcpStream, UnixStream};
use tokio_rustls::server::TlsStream;

/// A connection on the plugin's socket.
pub(crate) enum Conn {
    /// Without TLS (`TF_DISABLE_PLUGIN_TLS`, debug mode).
    Plain(Stream),
    /// Under AutoMTLS, after the handshake admitted the client.
    Tls(Box<TlsStream<Stream>>),
}

/// An accepted stream: on the Unix socket, or on TCP when no Unix socket could be made.
pub(crate) enum Stream {
    Unix(
        UnixStream,
        #[allow(dead_code, reason = "held, not read")] Slot,
    ),
    Tcp(
        TcpStream,
        #[allow(dead_code, reason = "held, not read")] Slot,
    ),
}

/// The connection's place among the server's open connections, given back when the
/// connection is dropped.
pub(crate) type Slot = tokio::sync::OwnedSemaphorePermit;

impl Stream {
    /// Waits until the peer has sent something (or closed the connection). Readiness
    /// alone can be a false positive (tokio says so), so it is confirmed by peeking at
    /// the socket, which leaves the byte for the server to read.
    pub(crate) async fn readable(&self) -> io::Result<()> {
        let mut byte = [std::mem::MaybeUninit::<u8>::uninit()];
        loop {
            let peeked = match self {
                Stream::Unix(s, _) => {
                    s.readable().await?;
                    s.try_io(Interest::READABLE, || SockRef::from(s).peek(&mut byte))
                }
                Stream::Tcp(s, _) => {
                    s.readable().await?;
                    s.try_io(Interest::READABLE, || SockRef::from(s).peek(&mut byte))
                }
            };
            match peeked {
                // A byte, or the end of the stream (0), which the server then meets.
                Ok(_) => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

/// `$body` with `$s` bound to the stream inside either variant.
macro_rules! either {
    ($stream:expr, $s:ident => $body:expr) => {
        match $stream {
            Stream::Unix($s, _) => $body,
            Stream::Tcp($s, _) => $body,
        }
    };
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        either!(self.get_mut(), s => Pin::new(s).poll_read(cx, buf))
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        either!(self.get_mut(), s => Pin::new(s).poll_write(cx, buf))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        either!(self.get_mut(), s => Pin::new(s).poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        either!(self.get_mut(), s => Pin::new(s).poll_shutdown(cx))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        either!(self.get_mut(), s => Pin::new(s).poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        either!(self, s => s.is_write_vectored())
    }
}

impl tonic::transport::server::Connected for Conn {
    type ConnectInfo = ();

    fn connect_info(&self) -> Self::ConnectInfo {}
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Conn::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Conn::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_flush(cx),
            Conn::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Conn::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_write_vectored(cx, bufs),
            Conn::Tls(s) => Pin::new(s.as_mut()).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        match self {
            Conn::Plain(s) => s.is_write_vectored(),
            Conn::Tls(s) => s.is_write_vectored(),
        }
    }
}
