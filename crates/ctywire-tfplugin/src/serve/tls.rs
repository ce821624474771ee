//! AutoMTLS: the server certificate made at start, and the TLS configuration that admits
//! only the client whose certificate Terraform pinned in `PLUGIN_CLIENT_CERT`.

use std::sync::Arc;

use rustls::client::danger::HandshakeSignatureValid;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{CertificateError, DigitallySignedStruct, DistinguishedName, SignatureScheme};

use super::ServeError;

/// The server's certificate and key, made at start (ECDSA P-256, self-signed, for
/// `localhost`, the name go-plugin's client checks).
pub(crate) struct ServerIdentity {
    /// The certificate, DER, as the handshake line sends it.
    pub(crate) cert: CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
}

impl ServerIdentity {
    /// A new self-signed certificate and its key.
    pub(crate) fn generate() -> Result<ServerIdentity, ServeError> {
        let fail = |e: rcgen::Error| ServeError::Tls(format!("making the server certificate: {e}"));
        let key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).map_err(fail)?;
        let mut params =
            rcgen::CertificateParams::new(vec!["localhost".to_owned()]).map_err(fail)?;
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "localhost");
        params.key_usages = vec![
            rcgen::KeyUsagePurpose::DigitalSignature,
            rcgen::KeyUsagePurpose::KeyEncipherment,
        ];
        params.extended_key_usages = vec![
            rcgen::ExtendedKeyUsagePurpose::ServerAuth,
            rcgen::ExtendedKeyUsagePurpose::ClientAuth,
        ];
        let cert = params.self_signed(&key).map_err(fail)?;
        Ok(ServerIdentity {
            cert: cert.der().clone(),
            key: PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
        })
    }
}

/// The TLS server configuration: this server's identity, HTTP/2 by ALPN (grpc-go's
/// client requires it), and a client certificate that must be `client_cert_pem`'s.
pub(crate) fn server_config(
    identity: &ServerIdentity,
    client_cert_pem: &str,
) -> Result<rustls::ServerConfig, ServeError> {
    let client_cert = CertificateDer::from_pem_slice(client_cert_pem.as_bytes()).map_err(|e| {
        ServeError::Tls(format!("PLUGIN_CLIENT_CERT is not a PEM certificate: {e}"))
    })?;
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let verifier = PinnedClientCert {
        cert: client_cert,
        algorithms: provider.signature_verification_algorithms,
    };
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .map_err(|e| ServeError::Tls(e.to_string()))?
        .with_client_cert_verifier(Arc::new(verifier))
        .with_single_cert(vec![identity.cert.clone()], identity.key.clone_key())
        .map_err(|e| ServeError::Tls(e.to_string()))?;
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(config)
}

/// Admits exactly one client certificate (byte-equal DER), whose key must sign the
/// handshake: go-plugin's client makes a self-signed certificate per launch and passes
/// it to the plugin, so there is no chain to build, only a pin to compare.
#[derive(Debug)]
struct PinnedClientCert {
    cert: CertificateDer<'static>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ClientCertVerifier for PinnedClientCert {
    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        &[]
    }

    fn verify_client_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _now: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        if end_entity.as_ref() == self.cert.as_ref() {
            Ok(ClientCertVerified::assertion())
        } else {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::ApplicationVerificationFailure,
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}
