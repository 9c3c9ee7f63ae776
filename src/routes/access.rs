//! Every look recorded: a carer's or an admin's read of a person's day, care log, reminders, memories, profile,
//! conversations or export is written to the access log (who, what, when; never the data), which the person
//! reads (`GET /api/me/access-log`) and the operator too. A board reading the same day every few seconds is one
//! look an hour, decided here before the store is asked.

use axum::Json;
use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::{ADMIN, USER};
use crate::app::{App, AppState};
use crate::auth::{Admin, CurrentUser};
use crate::error::{ApiError, Result};
use crate::store::access::{ADMIN_KEY, Access};

/// How many looks a read of the log shows.
const SHOWN: i64 = 500;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(mine)).routes(routes!(of_user))
}

/// Who reads: a user's id, or the admin key.
pub fn reader_of(admin: &Admin) -> &str {
    admin.user.as_ref().map_or(ADMIN_KEY, |u| u.id.as_str())
}

/// Records that `reader` read `what` of `person` (nothing when a person reads their own).
pub async fn looked(app: &App, person: &str, reader: &str, what: &'static str) -> Result<()> {
    if person == reader {
        return Ok(());
    }
    let key = (person.to_string(), reader.to_string(), what);
    if app.looks.new_look(key, crate::store::now_ms()) {
        app.store.record_access(person, reader, what).await?;
    }
    Ok(())
}

/// Who looked at a person's records.
#[derive(Serialize, ToSchema)]
struct AccessLog {
    /// Newest first, the last 500.
    accesses: Vec<Access>,
}

/// Who else looked at my records: carers and administrators, what and when.
#[utoipa::path(get, path = "/api/me/access-log", tag = USER, responses((status = 200, body = AccessLog)))]
async fn mine(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<AccessLog>> {
    let accesses = app.store.access_log(&caller.user.id, SHOWN).await?;
    Ok(Json(AccessLog { accesses }))
}

/// Who looked at a person's records (this read is not itself recorded).
#[utoipa::path(get, path = "/api/admin/users/{user_id}/access-log", tag = ADMIN,
    responses((status = 200, body = AccessLog), (status = 404, description = "no such user")))]
async fn of_user(State(app): State<AppState>, _admin: Admin, Path(id): Path<String>) -> Result<Json<AccessLog>> {
    if app.store.user_by_id(&id).await?.is_none() {
        return Err(ApiError::NotFound("user"));
    }
    let accesses = app.store.access_log(&id, SHOWN).await?;
    Ok(Json(AccessLog { accesses }))
}
