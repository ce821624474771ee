//! Which client's rules and wording apply: Terraform and OpenTofu releases differ in
//! their plan checks (see the table in the module's documentation).

use std::fmt;
use std::str::FromStr;

/// The client (Terraform or OpenTofu) and version whose plan rules and messages a check
/// follows. The default is the newest stable Terraform release, [`Client::Terraform1_15`].
///
/// ```
/// use ctywire::schema::Client;
///
/// let client: Client = "opentofu@1.12".parse()?;
/// assert_eq!(client, Client::OpenTofu1_12);
/// assert_eq!(client.to_string(), "opentofu@1.12");
/// assert_eq!(Client::default().release(), "Terraform 1.15.5");
/// assert!("terraform@0.12".parse::<Client>().is_err());
/// # Ok::<(), ctywire::schema::UnknownClient>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Client {
    /// Terraform 1.15 (its rules as of 1.15.5), the newest stable release.
    #[default]
    Terraform1_15,
    /// Terraform 1.16 (its rules as of 1.16.0-rc2).
    Terraform1_16,
    /// OpenTofu 1.12 (its rules as of 1.12.6).
    OpenTofu1_12,
}

impl Client {
    /// Every client, in the order of [`Client::name`]'s list.
    pub const ALL: [Client; 3] = [
        Client::Terraform1_15,
        Client::Terraform1_16,
        Client::OpenTofu1_12,
    ];

    /// The name `--client` takes (`terraform@1.15`).
    pub fn name(self) -> &'static str {
        match self {
            Client::Terraform1_15 => "terraform@1.15",
            Client::Terraform1_16 => "terraform@1.16",
            Client::OpenTofu1_12 => "opentofu@1.12",
        }
    }

    /// The release whose behaviour the rules reproduce, as messages name it
    /// (`Terraform 1.15.5`).
    pub fn release(self) -> &'static str {
        match self {
            Client::Terraform1_15 => "Terraform 1.15.5",
            Client::Terraform1_16 => "Terraform 1.16.0-rc2",
            Client::OpenTofu1_12 => "OpenTofu 1.12.6",
        }
    }

    /// The program's name, as a sentence about what it would do names it
    /// (`Terraform`, `OpenTofu`).
    ///
    /// ```
    /// use ctywire::schema::Client;
    ///
    /// assert_eq!(Client::Terraform1_16.program(), "Terraform");
    /// assert_eq!(Client::OpenTofu1_12.program(), "OpenTofu");
    /// ```
    pub fn program(self) -> &'static str {
        if self.is_opentofu() {
            "OpenTofu"
        } else {
            "Terraform"
        }
    }

    /// Whether this is an OpenTofu release.
    pub fn is_opentofu(self) -> bool {
        matches!(self, Client::OpenTofu1_12)
    }

    /// Whether this client checks the planned state's blocks as Terraform 1.16 does: a
    /// null collection of blocks is refused before it is compared with the
    /// configuration, and an unknown block is "planned unknown value for non-computed
    /// block".
    pub(crate) fn blocks_as_1_16(self) -> bool {
        matches!(self, Client::Terraform1_16)
    }
}

/// Whose rules a check applies: one client's, or every client's at once.
///
/// The checks take each decision where the clients' rules differ through
/// [`Rules::any`]: with one client that is the client's own rule; with
/// [`Rules::Strictest`] a value is refused there when any client refuses it, so a check
/// under the strictest rules finds nothing exactly when no client's check finds anything
/// (what it finds, in the wording of [`Rules::wording`], is no one client's answer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rules {
    /// One client's rules and wording.
    One(Client),
    /// The strictest of every client's rules, for a verdict on all of them in one walk.
    Strictest,
}

impl Rules {
    /// Whether `rule` holds for the client, or for any client under the strictest
    /// rules. Each client-dependent decision asks it in the direction that refuses.
    pub(super) fn any(self, rule: impl Fn(Client) -> bool) -> bool {
        match self {
            Rules::One(client) => rule(client),
            Rules::Strictest => Client::ALL.into_iter().any(rule),
        }
    }

    /// The client whose wording messages use (the default client's under the strictest
    /// rules).
    pub(super) fn wording(self) -> Client {
        match self {
            Rules::One(client) => client,
            Rules::Strictest => Client::default(),
        }
    }
}

impl From<Client> for Rules {
    fn from(client: Client) -> Rules {
        Rules::One(client)
    }
}

impl fmt::Display for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A client name that [`Client`]'s `FromStr` does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownClient(pub String);

impl fmt::Display for UnknownClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown client {:?}: expected terraform@1.15, terraform@1.16 or opentofu@1.12",
            self.0
        )
    }
}

impl std::error::Error for UnknownClient {}

impl FromStr for Client {
    type Err = UnknownClient;

    fn from_str(s: &str) -> Result<Client, UnknownClient> {
        Client::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| UnknownClient(s.to_owned()))
    }
}
