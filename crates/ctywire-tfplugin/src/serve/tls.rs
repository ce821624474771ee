//! AutoMTLS: the server certificate made at start, and the TLS configuration that admits
//! only the client whose certificate Terraform pinned in `PLUGIN_CLIENT_CERT`.

use std::sync::Arc;

use rustls::client::danger::HandshakeSignatureValid;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{
    alg_id, AlgorithmIdentifier, CertificateDer, InvalidSignature, PrivateKeyDer,
    PrivatePkcs8KeyDer, SignatureVerificationAlgorithm, UnixTime,
};
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
    let provider = Arc::new(rustls::crypto::ring::default_provider());
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
///
/// go-plugin's client key is ECDSA P-521, which ring does not verify: that one scheme
/// is checked with the `p521` crate ([`EcdsaP521Sha512`]), the others with ring's.
#[derive(Debug)]
struct PinnedClientCert {
    cert: CertificateDer<'static>,
    /// ring's algorithms.
    algorithms: WebPkiSupportedAlgorithms,
}

impl PinnedClientCert {
    /// The algorithms that verify a signature of `scheme`.
    fn algorithms_for(&self, scheme: SignatureScheme) -> &WebPkiSupportedAlgorithms {
        if scheme == SignatureScheme::ECDSA_NISTP521_SHA512 {
            &P521_ALGORITHMS
        } else {
            &self.algorithms
        }
    }
}

/// ECDSA on P-521 with SHA-512 (`ecdsa_secp521r1_sha512`), verified by the `p521` crate.
#[derive(Debug)]
struct EcdsaP521Sha512;

impl SignatureVerificationAlgorithm for EcdsaP521Sha512 {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        use p521::ecdsa::signature::Verifier;
        let key =
            p521::ecdsa::VerifyingKey::from_sec1_bytes(public_key).map_err(|_| InvalidSignature)?;
        let signature =
            p521::ecdsa::Signature::from_der(signature).map_err(|_| InvalidSignature)?;
        key.verify(message, &signature)
            .map_err(|_| InvalidSignature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        alg_id::ECDSA_P521
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        alg_id::ECDSA_SHA512
    }
}

static ECDSA_P521_SHA512: &dyn SignatureVerificationAlgorithm = &EcdsaP521Sha512;

/// The one scheme [`EcdsaP521Sha512`] verifies, as rustls's helpers take it.
static P521_ALGORITHMS: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
    all: &[ECDSA_P521_SHA512],
    mapping: &[(SignatureScheme::ECDSA_NISTP521_SHA512, &[ECDSA_P521_SHA512])],
};

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
        verify_tls12_signature(message, cert, dss, self.algorithms_for(dss.scheme))
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, self.algorithms_for(dss.scheme))
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        let mut schemes = P521_ALGORITHMS.supported_schemes();
        schemes.extend(self.algorithms.supported_schemes());
        schemes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p521::ecdsa::signature::Signer;
    use p521::ecdsa::{Signature, SigningKey};

    fn key(byte: u8) -> SigningKey {
        let mut secret = [0u8; 66];
        secret[65] = byte;
        secret[1] = 7;
        SigningKey::from_slice(&secret).unwrap()
    }

    #[test]
    fn p521_signatures_verify_only_with_their_key_and_message() {
        let signer = key(1);
        let public = signer.verifying_key().to_sec1_point(false);
        let signature: Signature = signer.sign(b"handshake");
        let der = signature.to_der();
        let verify = |public: &[u8], message: &[u8], signature: &[u8]| {
            EcdsaP521Sha512.verify_signature(public, message, signature)
        };
        assert!(verify(public.as_ref(), b"handshake", der.as_bytes()).is_ok());
        assert!(verify(public.as_ref(), b"handshakE", der.as_bytes()).is_err());
        let other = key(2).verifying_key().to_sec1_point(false);
        assert!(verify(other.as_ref(), b"handshake", der.as_bytes()).is_err());
        assert!(verify(public.as_ref(), b"handshake", &der.as_bytes()[..20]).is_err());
        assert!(verify(b"not a point", b"handshake", der.as_bytes()).is_err());
    }

    #[test]
    fn the_verifier_offers_p521_with_sha512() {
        let verifier = PinnedClientCert {
            cert: CertificateDer::from(vec![1, 2, 3]),
            algorithms: rustls::crypto::ring::default_provider().signature_verification_algorithms,
        };
        let schemes = verifier.supported_verify_schemes();
        assert_eq!(schemes[0], SignatureScheme::ECDSA_NISTP521_SHA512);
        assert!(schemes.contains(&SignatureScheme::ECDSA_NISTP256_SHA256));
        let now = UnixTime::now();
        assert!(verifier
            .verify_client_cert(&CertificateDer::from(vec![1, 2, 3]), &[], now)
            .is_ok());
        assert!(verifier
            .verify_client_cert(&CertificateDer::from(vec![1, 2, 4]), &[], now)
            .is_err());
    }
}
