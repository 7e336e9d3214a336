#!/bin/bash
# Stand-in for kind's kindnetd (IPv4 only, no NetworkPolicy): writes this node's CNI config from
# its spec.podCIDR, routes every other node's podCIDR via that node's InternalIP (every 5 s), and
# masquerades pod traffic that leaves the cluster's pod network (POD_SUBNET, from kind's manifest).
# kind's kindnet manifest gives it hostNetwork, NET_ADMIN, /etc/cni/net.d and a ServiceAccount
# that may list nodes, with a 50Mi/100m limit: curl + jq, not kubectl. The ServiceAccount, not
# the node's kubelet.conf: the Node authorizer lets a kubelet read its own Node object only.
set -uo pipefail
SA=/var/run/secrets/kubernetes.io/serviceaccount
API=https://${KUBERNETES_SERVICE_HOST}:${KUBERNETES_SERVICE_PORT}
CONF=/etc/cni/net.d/10-kindnet.conflist
self=$(hostname)

list_nodes() { # name, podCIDR, InternalIP per line
	curl -sf --max-time 5 --cacert "$SA/ca.crt" -H "Authorization: Bearer $(cat "$SA/token")" "$API/api/v1/nodes" |
		jq -r '.items[] | [.metadata.name, (.spec.podCIDR // ""),
			([.status.addresses[]? | select(.type == "InternalIP") | .address][0] // "")] | @tsv'
}

# As kindnetd's masquerade agent: pod-to-pod traffic, across nodes too, keeps its source address
# (NetworkPolicy matches on it; ptp's own ipMasq would rewrite everything outside the node's
# podCIDR); anything else leaves with the node's address.
setup_masquerade() {
	local subnet=${POD_SUBNET:-10.244.0.0/16}
	iptables -t nat -N KINDNET-MASQ 2>/dev/null || iptables -t nat -F KINDNET-MASQ
	iptables -t nat -A KINDNET-MASQ -d "$subnet" -j RETURN
	iptables -t nat -A KINDNET-MASQ -j MASQUERADE
	iptables -t nat -C POSTROUTING -s "$subnet" -j KINDNET-MASQ 2>/dev/null ||
		iptables -t nat -A POSTROUTING -s "$subnet" -j KINDNET-MASQ
	echo "masquerading traffic from $subnet to outside it"
}

write_conf() { # podCIDR
	local want
	want=$(sed "s|@SUBNET@|$1|" /etc/kindnetd/cni-template.conflist)
	[[ -f $CONF && $(cat "$CONF") == "$want" ]] && return
	# Atomic: kubelet polls the directory and must never read half a file.
	printf '%s\n' "$want" >"$CONF.tmp" && mv "$CONF.tmp" "$CONF" && echo "wrote $CONF for $1"
}

until setup_masquerade; do
	echo "setting up masquerading failed; retrying"
	sleep 2
done
while true; do
	if ! nodes=$(list_nodes); then
		echo "listing nodes failed; retrying"
		sleep 2
		continue
	fi
	while IFS=$'\t' read -r name cidr ip; do
		[[ -n $cidr && -n $ip ]] || continue
		if [[ $name == "$self" ]]; then
			write_conf "$cidr"
		elif [[ $(ip route show "$cidr") != "$cidr via $ip "* ]]; then
			ip route replace "$cidr" via "$ip" && echo "route $cidr via $ip ($name)"
		fi
	done <<<"$nodes"
	sleep 5
done
