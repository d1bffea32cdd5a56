//! Random access (FEAT): the value at any index of any size, uniform
//! sampling and striped enumeration over the same compiled spaces.
