//! `TLS=acme`: a certificate for a real domain from an ACME authority (Let's Encrypt, or a private one), by the
//! HTTP-01 challenge, which the HTTP door answers at `/.well-known/acme-challenge/<token>` (the domain's port 80
//! must reach it). The account and the certificate are kept in the data folder (`tls/acme/`, the keys readable
//! by the owner alone), so a restart does not ask again; the certificate is renewed 30 days before it expires.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, SystemTime};

use instant_acme::{
    Account, AccountCredentials, AuthorizationStatus, ChallengeType, Identifier, NewAccount, NewOrder, OrderStatus,
    RetryPolicy,
};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

use super::local_ca::Issued;
use crate::config::AcmeSettings;

/// Certificates from ACME authorities are valid 90 days (Let's Encrypt); renewed after 60.
const RENEW_AFTER: Duration = Duration::from_secs(60 * 24 * 3600);

/// The key authorizations of the challenges under way, by token: what the HTTP door answers.
static CHALLENGES: LazyLock<Mutex<HashMap<String, String>>> = LazyLock::new(Mutex::default);

/// The answer to `/.well-known/acme-challenge/<token>`, while that challenge is under way.
pub fn challenge(token: &str) -> Option<String> {
    CHALLENGES.lock().ok()?.get(token).cloned()
}

/// One domain's certificate from one authority.
pub struct Acme {
    settings: AcmeSettings,
    dir: PathBuf,
}

impl Acme {
    pub fn new(settings: AcmeSettings, data: &std::path::Path) -> Self {
        Self {
            dir: super::local_ca::folder(data).join("acme"),
            settings,
        }
    }

    pub fn domain(&self) -> &str {
        &self.settings.domain
    }

    fn files(&self) -> (PathBuf, PathBuf) {
        let name = &self.settings.domain;
        (
            self.dir.join(format!("{name}.crt")),
            self.dir.join(format!("{name}.key")),
        )
    }

    /// The certificate obtained before, if it is there and readable.
    pub fn cached(&self) -> Option<Issued> {
        let (cert, key) = self.files();
        let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&cert)
            .ok()?
            .collect::<Result<_, _>>()
            .ok()?;
        let key = PrivateKeyDer::from_pem_file(&key).ok()?;
        (!chain.is_empty()).then_some(Issued { chain, key })
    }

    /// Whether a certificate must be obtained: none yet, or it is due for renewal.
    pub fn due(&self) -> bool {
        let (cert, _) = self.files();
        let age = std::fs::metadata(&cert)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok());
        age.is_none_or(|age| age >= RENEW_AFTER) || self.cached().is_none()
    }

    /// Obtains a certificate: the account (made once), an order for the domain, its HTTP-01 challenge answered
    /// by the HTTP door, then the certificate, kept in the data folder.
    pub async fn obtain(&self) -> Result<Issued, String> {
        fn failed(what: &'static str) -> impl Fn(instant_acme::Error) -> String {
            move |e| format!("ACME {what}: {e}")
        }
        let account = self.account().await?;
        let identifiers = [Identifier::Dns(self.settings.domain.clone())];
        let mut order = account
            .new_order(&NewOrder::new(&identifiers))
            .await
            .map_err(failed("order"))?;
        let mut tokens = Vec::new();
        let mut authorizations = order.authorizations();
        while let Some(authorization) = authorizations.next().await {
            let mut authorization = authorization.map_err(failed("authorization"))?;
            if authorization.status == AuthorizationStatus::Valid {
                continue;
            }
            let mut challenge = authorization
                .challenge(ChallengeType::Http01)
                .ok_or("the ACME authority offers no HTTP-01 challenge")?;
            let answer = challenge.key_authorization().as_str().to_string();
            if let Ok(mut open) = CHALLENGES.lock() {
                open.insert(challenge.token.clone(), answer);
            }
            tokens.push(challenge.token.clone());
            challenge.set_ready().await.map_err(failed("challenge"))?;
        }
        let retries = RetryPolicy::default().timeout(Duration::from_secs(120));
        let status = order.poll_ready(&retries).await;
        if let Ok(mut open) = CHALLENGES.lock() {
            for token in &tokens {
                open.remove(token);
            }
        }
        match status.map_err(failed("validation"))? {
            OrderStatus::Ready => {}
            other => return Err(format!("ACME validation of {} ended {other:?}", self.settings.domain)),
        }
        let key_pem = order.finalize().await.map_err(failed("finalization"))?;
        let chain_pem = order.poll_certificate(&retries).await.map_err(failed("certificate"))?;
        let (cert, key) = self.files();
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        crate::files::write_private(&key, &key_pem).map_err(|e| format!("{}: {e}", key.display()))?;
        std::fs::write(&cert, &chain_pem).map_err(|e| format!("{}: {e}", cert.display()))?;
        self.cached()
            .ok_or_else(|| "the ACME certificate could not be read back".to_string())
    }

    /// The account: the one kept in the data folder, else a new one, kept there.
    async fn account(&self) -> Result<Account, String> {
        let builder = || match &self.settings.directory_ca {
            Some(ca) => Account::builder_with_root(ca),
            None => Account::builder(),
        };
        let builder = builder().map_err(|e| format!("ACME client: {e}"))?;
        let file = self.dir.join("account.json");
        if let Ok(text) = std::fs::read_to_string(&file)
            && let Ok(credentials) = serde_json::from_str::<AccountCredentials>(&text)
        {
            return builder
                .from_credentials(credentials)
                .await
                .map_err(|e| format!("ACME account: {e}"));
        }
        let contact = self.settings.email.as_ref().map(|e| format!("mailto:{e}"));
        let contacts: Vec<&str> = contact.iter().map(String::as_str).collect();
        let new = NewAccount {
            contact: &contacts,
            terms_of_service_agreed: true,
            only_return_existing: false,
        };
        let (account, credentials) = builder
            .create(&new, self.settings.directory.clone(), None)
            .await
            .map_err(|e| format!("ACME account at {}: {e}", self.settings.directory))?;
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let text = serde_json::to_string(&credentials).map_err(|e| e.to_string())?;
        crate::files::write_private(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
        Ok(account)
    }
}
