//! `#[derive(RustExpr)]`: the Rust expression that rebuilds a value, for
//! the regression suites `neatcheck::suite` exports. Each variant prints as
//! its path (`Shape::Circle`, `Point`) with its fields' expressions, in the
//! variant's own syntax; a type parameter must itself be `RustExpr`.

use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, GenericParam};

pub(crate) fn expand(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let nc = quote!(::neatcheck::suite);
    let name = &input.ident;
    let arms = match &input.data {
        Data::Struct(s) => vec![arm(quote!(#name), &name.to_string(), &s.fields)],
        Data::Enum(e) => e
            .variants
            .iter()
            .map(|v| {
                let vn = &v.ident;
                arm(quote!(#name::#vn), &format!("{name}::{vn}"), &v.fields)
            })
            .collect(),
        Data::Union(u) => {
            return Err(syn::Error::new_spanned(
                u.union_token,
                "#[derive(RustExpr)] does not support unions",
            ))
        }
    };
    let mut generics = input.generics.clone();
    for p in generics.params.iter_mut() {
        if let GenericParam::Type(t) = p {
            t.bounds.push(syn::parse_quote!(#nc::RustExpr));
        }
    }
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = input.generics.split_for_impl();
    let rust_type = rust_type(input);
    // An enum without variants has no values: its match has no arms, on
    // the value (a reference to it counts as inhabited).
    let body = if arms.is_empty() {
        quote!(match *self {})
    } else {
        quote! {
            #[allow(unused_variables)]
            match self {
                #(#arms)*
            }
        }
    };
    Ok(quote! {
        impl #impl_generics #nc::RustExpr for #name #ty_generics #where_clause {
            fn rust_expr(&self) -> #nc::Expr {
                #body
            }
            fn rust_type() -> ::core::option::Option<::std::string::String> {
                #rust_type
            }
        }
    })
}

/// The body of `rust_type`: the type's name with its type parameters' types
/// (`None` when one is unknown, or with const parameters, whose values the
/// derive does not print).
fn rust_type(input: &DeriveInput) -> TokenStream2 {
    let nc = quote!(::neatcheck::suite);
    let name = input.ident.to_string();
    let params = &input.generics.params;
    if params.iter().any(|p| matches!(p, GenericParam::Const(_))) {
        return quote!(::core::option::Option::None);
    }
    let types: Vec<_> = params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(t) => Some(&t.ident),
            _ => None,
        })
        .collect();
    if types.is_empty() {
        return quote!(::core::option::Option::Some(::std::string::String::from(#name)));
    }
    quote! {
        ::core::option::Option::Some(::std::format!(
            "{}<{}>",
            #name,
            [#(<#types as #nc::RustExpr>::rust_type()?),*].join(", ")
        ))
    }
}

/// One match arm: the variant's pattern binding its fields, and the
/// expression built from them.
fn arm(path: TokenStream2, printed: &str, fields: &Fields) -> TokenStream2 {
    let nc = quote!(::neatcheck::suite);
    match fields {
        Fields::Unit => quote!(#path => #nc::Expr::atom(#printed),),
        Fields::Unnamed(f) => {
            let vars: Vec<_> = (0..f.unnamed.len())
                .map(|i| format_ident!("__field{}", i))
                .collect();
            quote! {
                #path(#(#vars),*) => #nc::Expr::call(
                    #printed,
                    [#(#nc::RustExpr::rust_expr(#vars)),*],
                ),
            }
        }
        Fields::Named(f) => {
            let names: Vec<_> = f.named.iter().map(|f| f.ident.clone().unwrap()).collect();
            let texts = names.iter().map(|n| n.to_string());
            quote! {
                #path { #(#names),* } => #nc::Expr::structure(
                    #printed,
                    [#((#texts, #nc::RustExpr::rust_expr(#names))),*],
                ),
            }
        }
    }
}
