//! End-to-end tests for Umpire live in `tests/tests/`; this library is empty so the package can
//! hold them (a bare top-level `tests/` folder is not compiled under a virtual workspace).
